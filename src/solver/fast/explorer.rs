//! The explorer advisor (FESS's explorer): a move that lets the player push a box it could not
//! push before, when the move can be undone.
//!
//! Packing, connectivity and the opener all reward a result: a goal filled, a region joined,
//! a way cleared. Some levels open with moves that have none of these: the boxes standing on
//! the goals at the start fence the player out of the goal room, and the first moves shift
//! them one by one, each letting the player behind the next box, until the room opens onto
//! the rest of the level (XSokoban 50). Each such move frees a square the player could not
//! reach before, from which some other box can now be pushed. Unadvised, a line of them costs
//! the full weight of each move and is reached late; named, it costs what an advised move does.
//!
//! A move is named when the square it frees joins the player to a region of the parent's
//! floor that is not its own and that holds the player square of a push of another box (the
//! square beyond that box free and live). The move's box must be able to go back where it
//! came from by pushes on the bare board, so that the advisor never leads into a position it
//! cannot leave (FESS rejects irreversible moves the same way). Among the moves named, the
//! one that packs most of the plan, then leaves the fewest regions, then the fewest hotspots.
//! The test reads the parent's region labels (it does not flood the child), so it can name a
//! move whose box, set down, shuts the region off again: a nudge, not a proof. Flooding each
//! named child to make the test exact solved fewer levels at a fixed budget (the benchmark
//! log has the figures).

use std::cell::OnceCell;

use super::pull::start_distances;
use crate::analysis::region::Labels;
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::Dir;

/// Levels with more live squares than this get no reversibility table (its size grows with
/// the square of the live squares): every move counts as reversible there.
pub const MAX_LIVE: usize = 2048;

/// The explorer's tables: which moves can be undone, and the pushes each region of the
/// expanded state's floor holds.
pub struct Explorer {
    /// Bit `s` of row `t`: a box on live square `t` can be pushed back to `s` on the bare
    /// board; worked out when first asked (a search that meets no move the test names never
    /// pays for it). Empty on levels above [`MAX_LIVE`].
    back: OnceCell<Vec<u64>>,
    /// The pushes of boxes whose player square lies in each region of the expanded state.
    pushes: Vec<u32>,
}

impl Explorer {
    /// The tables for a level (the reversibility table is made when first asked).
    pub fn new() -> Explorer {
        Explorer { back: OnceCell::new(), pushes: Vec::new() }
    }

    /// Whether a box moved from `from` to `to` on the level of `a` can be pushed back on the
    /// bare board.
    pub fn reversible(&self, a: &Analysis, from: Sq, to: Sq) -> bool {
        let back = self.back.get_or_init(|| back_table(a));
        if back.is_empty() {
            return true;
        }
        let (s, t, words) = (from.index(), to.index(), a.live().div_ceil(64));
        back[t * words + s / 64] & (1 << (s % 64)) != 0
    }

    /// Counts the pushes of each region of the expanded state (its floor labelled in
    /// `labels`, boxes marked in `occupied`): a box with its player square in the region and
    /// the square beyond it free and live.
    pub fn load(&mut self, a: &Analysis, labels: &Labels, occupied: &[u8], boxes: &[u16]) {
        self.pushes.clear();
        self.pushes.resize(labels.count(), 0);
        for &b in boxes {
            for r in box_pushes(a, labels, occupied, Sq::new(usize::from(b))) {
                self.pushes[r] += 1;
            }
        }
    }

    /// Whether the move of the box on `from` frees a square beside a region other than the
    /// player's (`player`) where another box can be pushed from (see the module docs).
    pub fn opens(&self, a: &Analysis, labels: &Labels, occupied: &[u8], player: Option<usize>, from: Sq) -> bool {
        let own = box_pushes(a, labels, occupied, from);
        let mut seen = [usize::MAX; 4];
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let Some(r) = a.neighbor(from, d).and_then(|t| labels.region_of(t)) else { continue };
            if Some(r) == player || seen.contains(&r) {
                continue;
            }
            seen[k] = r;
            let mine = own.clone().filter(|&q| q == r).count() as u32;
            if self.pushes.get(r).is_some_and(|&n| n > mine) {
                return true;
            }
        }
        false
    }
}

/// The reversibility table of the level of `a` (see [`Explorer`]): the relaxed push flood of
/// each live square, as the backward searches work out theirs; empty above [`MAX_LIVE`] live
/// squares. A box that reaches a dead square never gets back to a live one, so the rows need
/// only the live squares.
fn back_table(a: &Analysis) -> Vec<u64> {
    let live = a.live();
    if live > MAX_LIVE {
        return Vec::new();
    }
    let words = live.div_ceil(64);
    let mut back = vec![0u64; live * words];
    for (t, row) in back.chunks_exact_mut(words).enumerate() {
        let pushes = start_distances(a, &[t as u16], false);
        for s in (0..live).filter(|&s| pushes[s] != UNREACHABLE) {
            row[s / 64] |= 1 << (s % 64);
        }
    }
    back
}

/// The regions holding the player square of each push of the box on `b` (one per push).
fn box_pushes<'l>(
    a: &'l Analysis,
    labels: &'l Labels,
    occupied: &'l [u8],
    b: Sq,
) -> impl Iterator<Item = usize> + Clone + 'l {
    Dir::ALL.into_iter().filter_map(move |d| {
        let beyond = a.neighbor(b, d)?;
        let behind = a.neighbor(b, d.opposite())?;
        let free = |s: Sq| occupied[s.index()] == 0;
        (free(beyond) && a.is_live(beyond) && free(behind)).then(|| labels.region_of(behind)).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::level::Level;

    fn board(text: &str) -> (Level, Analysis) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        (level, a)
    }

    fn at(level: &Level, a: &Analysis, row: usize, col: usize) -> Sq {
        a.sq(level.square_at(row, col).expect("floor"))
    }

    /// Labels the floor of `level`'s start; returns them, the player's region and the boxes.
    fn start(level: &Level, a: &Analysis) -> (Labels, Option<usize>, Vec<u8>, Vec<u16>) {
        let mut occupied = vec![0u8; a.squares()];
        let boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        for &b in &boxes {
            occupied[usize::from(b)] = 1;
        }
        let mut labels = Labels::new(a.squares());
        labels.fill(a, |s| occupied[s.index()] == 0);
        let player = labels.region_of(a.sq(level.player()));
        (labels, player, occupied, boxes)
    }

    #[test]
    fn a_box_leaving_a_doorway_lets_the_player_push_the_box_behind_it() {
        // The box in the doorway shuts the player out of the right room, where the other box
        // can be pushed from; pushing it on into the room lets the player in.
        let (level, a) = board("#########\n#@  #   #\n#   $ $ #\n#   #  .#\n#####  .#\n    #####\n");
        let (labels, player, occupied, boxes) = start(&level, &a);
        let mut explorer = Explorer::new();
        explorer.load(&a, &labels, &occupied, &boxes);
        let door = at(&level, &a, 2, 4);
        assert!(explorer.opens(&a, &labels, &occupied, player, door));
        assert!(explorer.reversible(&a, door, at(&level, &a, 2, 5)), "pushed back from the room's side");
        // The box inside the room frees no square beside another region of the player's.
        let inner = at(&level, &a, 2, 6);
        assert!(!explorer.opens(&a, &labels, &occupied, labels.region_of(at(&level, &a, 1, 6)), inner));
    }

    #[test]
    fn a_box_pushed_against_a_wall_cannot_come_back() {
        let (level, a) = board("#######\n#   . #\n# $$  #\n#@  . #\n#######\n");
        let explorer = Explorer::new();
        let (inside, wall_side) = (at(&level, &a, 2, 2), at(&level, &a, 1, 2));
        assert!(!explorer.reversible(&a, inside, wall_side), "no square to push it back down from");
        assert!(explorer.reversible(&a, wall_side, inside) || !a.is_live(wall_side));
        assert!(explorer.reversible(&a, inside, at(&level, &a, 2, 4)), "along the open row and back");
    }
}
