//! The arena of states both searches of the fast engine keep: one node per state, stored by
//! full key (the box bitset over the live squares, `stride` words) and normalised player
//! square (the lowest square of the player's region), with a table of handles for lookups.
//!
//! The forward search (`search.rs`) and the backward one (`pull.rs`) build their keys the
//! same way, which is what lets each look its new states up in the other's arena (they meet).
//! Lookups compare the full key, never just the hash.

use hashbrown::HashTable;

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
    /// (handle, hash) of every state, by hash.
    table: HashTable<(u32, u32)>,
}

impl<N: Node> Keyed<N> {
    /// An empty arena for the level of `a`.
    pub fn new(a: &Analysis) -> Keyed<N> {
        Keyed { stride: words(a), nodes: Vec::new(), keys: Vec::new(), table: HashTable::new() }
    }

    /// The box bitset of state `id`.
    pub fn key(&self, id: u32) -> &[u64] {
        let i = id as usize * self.stride;
        &self.keys[i..i + self.stride]
    }

    /// The state with box bitset `words` and normalised player `player` (hashed by
    /// [`hash_key`]), if there is one.
    pub fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        self.table
            .find(spread(hash), |&(n, h)| {
                h == hash && self.nodes[n as usize].player() == player && self.key(n) == words
            })
            .map(|&(n, _)| n)
    }

    /// Stores a new state (not in the arena yet) and returns its handle.
    pub fn insert(&mut self, words: &[u64], node: N, hash: u32) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.keys.extend_from_slice(words);
        self.table.insert_unique(spread(hash), (id, hash), |&(_, h)| spread(h));
        id
    }

    /// States stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held: keys, nodes and the table (a handle, a hash and a control byte per slot).
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.nodes.capacity() * std::mem::size_of::<N>() + self.table.capacity() * 9
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

/// The hash of a state: its box bitset `words` and normalised player square.
pub fn hash_key(words: &[u64], player: u16) -> u32 {
    let mut h: u64 = u64::from(player).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &w in words {
        h = (h.rotate_left(26) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    (h >> 32) as u32
}

/// A 32-bit hash spread over the table's 64 bits.
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
