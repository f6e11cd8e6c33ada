//! Raw solver indices for the fast engine's flat tables.
//!
//! The fast engine indexes its per-square tables by `usize` solver index and marks a wall
//! neighbour with [`NONE`]. This module is the one bridge between those indices and the
//! analysis's [`Sq`] API (and the deadlock rules, which take `Sq`). Moving the engine onto `Sq`
//! and the shared layers (`store`, `successors`) is open work; until then, nothing outside
//! `fast` uses raw indices.

use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::{Dir, Square};
use crate::solver::deadlock;

/// A missing neighbour (a wall) or an unreachable distance, in raw tables.
pub const NONE: u16 = u16::MAX;

// The raw sentinel and the analysis's must agree: distances are copied across unchanged.
const _: () = assert!(NONE == UNREACHABLE);

/// Raw-index views of an [`Analysis`].
pub trait RawIndex {
    /// The solver index of a level square.
    fn index_of(&self, s: Square) -> usize;
    /// The neighbour of solver index `i` in direction `d`, or [`NONE`].
    fn nb(&self, i: usize, d: Dir) -> u16;
    /// Pushes from solver index `i` to goal `g` on an empty board, or [`NONE`].
    fn dist(&self, g: usize, i: usize) -> u16;
    /// The level square of solver index `i`.
    fn square_of(&self, i: usize) -> Square;
}

impl RawIndex for Analysis {
    fn index_of(&self, s: Square) -> usize {
        self.sq(s).index()
    }
    #[inline]
    fn nb(&self, i: usize, d: Dir) -> u16 {
        self.neighbor(Sq::new(i), d).map_or(NONE, |t| t.index() as u16)
    }
    #[inline]
    fn dist(&self, g: usize, i: usize) -> u16 {
        self.distance(g, Sq::new(i)).unwrap_or(NONE)
    }
    fn square_of(&self, i: usize) -> Square {
        self.square(Sq::new(i))
    }
}

/// [`deadlock::freeze`] on a raw index.
pub fn freeze(a: &Analysis, occupied: &[u8], t: usize, path: &mut Vec<Sq>) -> bool {
    deadlock::freeze(a, occupied, Sq::new(t), path)
}

/// [`deadlock::block_2x2`] on a raw index.
pub fn block_2x2(a: &Analysis, occupied: &[u8], t: usize) -> bool {
    deadlock::block_2x2(a, occupied, Sq::new(t))
}
