//! The arena of states both searches of the fast engine keep: one node per state, stored by
//! full key (the box bitset over the live squares, `stride` words) and normalised player
//! square (the lowest square of the player's region), with a table of handles for lookups.
//!
//! The forward search (`search.rs`) and the backward one (`pull.rs`) build their keys the
//! same way, which is what lets each look its new states up in the other's arena (they meet).
//! Lookups compare the full key, never just the hash.
//!
//! The table is open addressing with linear probing over one word per slot (handle, 16 bits
//! of hash, player square), so a lookup that finds nothing touches one cache line, and one that
//! finds a state touches that line and the state's key. The home slot follows the boxes alone
//! (states that differ only in the player's region sit side by side), so the searches can
//! [`Keyed::prefetch`] the slots of all the children of a state before they look any of them
//! up: on the hard levels lookups were a sizeable part of the fast engine's time, nearly all of
//! it waiting on memory, one child after another. A second stage,
//! [`Keyed::prefetch_matches`], then asks for the keys and nodes of the states whose slots
//! carry a child's hash tag, so a lookup that finds its state does not wait on them either
//! (docs/benchmark-log.md has what each stage saved).

use crate::analysis::Analysis;

/// A node of the arena: whatever the search keeps per state, with the state's normalised
/// player square.
pub trait Node: Copy {
    /// The lowest square of the player's region.
    fn player(&self) -> u16;
}

/// States by full key, each with a node; a state's handle is its index.
pub struct Keyed<N> {
    stride: usize,
    pub nodes: Vec<N>,
    keys: Vec<u64>,
    /// Slots, a power of two of them: [`EMPTY`] or [`slot`] of a state.
    slots: Vec<u64>,
}

/// An unused slot (no state has handle `u32::MAX`: the arena would not fit in memory).
const EMPTY: u64 = u64::MAX;

/// Slots when the arena is made.
const FIRST_SLOTS: usize = 1 << 10;

/// The slot of state `id`: its handle, the low 16 bits of its hash and its player square.
fn slot(id: u32, hash: u32, player: u16) -> u64 {
    (u64::from(id) << 32) | (u64::from(hash & 0xFFFF) << 16) | u64::from(player)
}

impl<N: Node> Keyed<N> {
    /// An empty arena for the level of `a`.
    pub fn new(a: &Analysis) -> Keyed<N> {
        Keyed { stride: words(a), nodes: Vec::new(), keys: Vec::new(), slots: vec![EMPTY; FIRST_SLOTS] }
    }

    /// The box bitset of state `id`.
    pub fn key(&self, id: u32) -> &[u64] {
        let i = id as usize * self.stride;
        &self.keys[i..i + self.stride]
    }

    /// Asks the processor to load the home slot of states with hash `hash` (see
    /// [`hash_key`]), for a lookup soon after; does nothing where there is no such instruction.
    pub fn prefetch(&self, hash: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let at: *const u64 = &self.slots[self.home(hash)];
            // SAFETY: a prefetch is only a hint (it never faults, whatever the address), and
            // SSE, which it needs, is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Asks the processor to load the keys and nodes of the states in the home cluster of
    /// `hash` whose slots carry its tag (the states a lookup will compare), after
    /// [`Keyed::prefetch`] loaded the slots: a lookup that finds its state then waits on
    /// neither. Looks at a few slots at most; does nothing where there is no such instruction.
    pub fn prefetch_matches(&self, hash: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let tag = slot(0, hash, 0) as u32 & 0xFFFF_0000;
            let mask = self.slots.len() - 1;
            let mut i = self.home(hash);
            for _ in 0..4 {
                let s = self.slots[i];
                if s == EMPTY {
                    break;
                }
                if s as u32 & 0xFFFF_0000 == tag {
                    let id = (s >> 32) as usize;
                    let key: *const u64 = &self.keys[id * self.stride];
                    let node: *const N = &self.nodes[id];
                    // SAFETY: as in `prefetch`, a hint that never faults.
                    unsafe {
                        _mm_prefetch::<_MM_HINT_T0>(key.cast());
                        _mm_prefetch::<_MM_HINT_T0>(node.cast());
                    }
                }
                i = (i + 1) & mask;
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The state with box bitset `words` and normalised player `player` (`hash` is
    /// [`hash_key`] of `words`), if there is one.
    pub fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        let want = slot(0, hash, player) as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = self.slots[i];
            if s == EMPTY {
                return None;
            }
            let id = (s >> 32) as u32;
            // Word by word: keys are a few words, and a call to the library's comparison
            // for each candidate cost more than the comparison.
            if s as u32 == want && self.key(id).iter().zip(words).all(|(x, y)| x == y) {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores a new state (not in the arena yet) and returns its handle.
    pub fn insert(&mut self, words: &[u64], node: N, hash: u32) -> u32 {
        let id = u32::try_from(self.nodes.len()).ok().filter(|&id| id < u32::MAX).expect("arena full");
        debug_assert_eq!(hash, hash_key(words));
        // At most 70% full: linear probing stays within a line or two.
        if (self.nodes.len() + 1) * 10 > self.slots.len() * 7 {
            self.grow();
        }
        self.nodes.push(node);
        self.keys.extend_from_slice(words);
        self.place(slot(id, hash, node.player()), hash);
        id
    }

    /// The first slot to probe for a state with hash `hash`.
    fn home(&self, hash: u32) -> usize {
        (spread(hash) >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Puts `s` (of a state with hash `hash`) into the first free slot from its home.
    fn place(&mut self, s: u64, hash: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        while self.slots[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = s;
    }

    /// Twice the slots, every state placed again (its hash worked out from its key).
    fn grow(&mut self) {
        let twice = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, twice);
        for s in old.into_iter().filter(|&s| s != EMPTY) {
            let hash = hash_key(self.key((s >> 32) as u32));
            self.place(s, hash);
        }
    }

    /// States stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held: keys, nodes and the table (a word per slot).
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.nodes.capacity() * std::mem::size_of::<N>() + self.slots.len() * 8
    }
}

/// Words of a box bitset over the live squares of the level of `a`.
pub fn words(a: &Analysis) -> usize {
    a.live().div_ceil(64).max(1)
}

/// The box squares of key `words`, in increasing order, into `out`.
pub fn boxes_of(words: &[u64], out: &mut Vec<u16>) {
    out.clear();
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out.push((w * 64 + bits.trailing_zeros() as usize) as u16);
            bits &= bits - 1;
        }
    }
}

/// Writes to `out` the box bitset `key` with the box on `from` moved to `to`: the key of a
/// child, whose hash the searches take before they look it up.
pub fn moved(key: &[u64], from: usize, to: usize, out: &mut [u64]) {
    out.copy_from_slice(key);
    out[from / 64] &= !(1 << (from % 64));
    out[to / 64] |= 1 << (to % 64);
}

/// The hash of a state with box bitset `words`. The player's square is left out: the table
/// holds it whole beside the handle, and a state's children can be hashed (and their slots
/// loaded) before their player regions are worked out.
pub fn hash_key(words: &[u64]) -> u32 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &w in words {
        h = (h.rotate_left(26) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    (h >> 32) as u32
}

/// A 32-bit hash spread over 64 bits, whose top bits pick the home slot.
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[derive(Clone, Copy)]
    struct Player(u16);

    impl Node for Player {
        fn player(&self) -> u16 {
            self.0
        }
    }

    /// Enough states to grow the table several times, each found again by its full key, and
    /// keys or players not stored never found (the player squares collide on purpose).
    #[test]
    fn finds_every_state_stored_and_nothing_else() {
        let level = &parse_levels("#######\n#@ $ .#\n#######\n").unwrap()[0];
        let a = Analysis::new(level);
        let mut arena: Keyed<Player> = Keyed::new(&a);
        let state = |n: u64| (vec![n.wrapping_mul(0x2545_F491_4F6C_DD1D); words(&a)], (n % 5) as u16);
        for n in 0..5000 {
            let (key, player) = state(n);
            let hash = hash_key(&key);
            assert_eq!(arena.find(&key, player, hash), None);
            assert_eq!(arena.insert(&key, Player(player), hash), n as u32);
        }
        assert!(arena.bytes() >= 5000 * 8 * 2);
        for n in 0..5000 {
            let (key, player) = state(n);
            // A hint only: it must not disturb what the lookup finds.
            arena.prefetch_matches(hash_key(&key));
            assert_eq!(arena.find(&key, player, hash_key(&key)), Some(n as u32));
            assert_eq!(arena.key(n as u32), &key[..]);
            let other = (player + 1) % 5;
            assert_eq!(arena.find(&key, other, hash_key(&key)), None);
        }
        let (key, player) = state(5000);
        assert_eq!(arena.find(&key, player, hash_key(&key)), None);
    }

    #[test]
    fn a_moved_box_leaves_its_square_for_the_new_one() {
        let mut out = [0u64; 2];
        moved(&[0b101, 1], 2, 70, &mut out);
        assert_eq!(out, [0b001, 1 | 1 << 6]);
    }
}
