//! The node store: every state a search has seen, its search data, and the closed set.
//!
//! Storage follows varisat's arena style. A state is a [`NodeId`] (a `u32` handle) into two
//! arenas: the nodes (parent handle, cost so far, lower bound, player square, distance-table
//! id) and the keys (`stride` words each, see [`super::state`]). Both arenas grow in fixed-size
//! chunks, so memory grows smoothly instead of doubling, and the accounting in
//! [`NodeStore::bytes`] is what is really held. The closed set is a hashbrown table of handles;
//! a lookup compares the full key and player square in the arena, so two states are never merged
//! on a hash collision. Whether a node was expanded is one bit per node.
//!
//! A node does not store the push that made it: the path is rebuilt by comparing each key with
//! its parent's (see [`super::state::KeyLayout::moved`]), which keeps a node at 16 bytes in the
//! pushes mode.

use std::num::NonZeroU32;

use hashbrown::HashTable;

use super::frozen::TableId;
use super::state::{KeyLayout, hash};
use crate::analysis::Sq;

/// The handle of a stored state. `Option<NodeId>` is as small as a `u32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(NonZeroU32);

impl NodeId {
    #[inline]
    fn new(index: usize) -> Option<NodeId> {
        u32::try_from(index + 1).ok().and_then(NonZeroU32::new).map(NodeId)
    }

    /// A handle for tests of structures that hold handles.
    #[cfg(test)]
    pub fn for_tests(index: usize) -> NodeId {
        NodeId::new(index).expect("small index")
    }

    /// The arena index.
    #[inline]
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

/// What a search keeps per state besides its key. `G` is the engine's cost type.
#[derive(Debug, Clone, Copy)]
pub struct Node<G> {
    /// The state this one was reached from; `None` for the start.
    pub parent: Option<NodeId>,
    /// Cost of the best path found so far.
    pub g: G,
    /// Lower bound on the cost to go, in bound units (see [`super::bound`]).
    pub h: u16,
    /// The player square (normalised in the pushes mode).
    pub player: Sq,
    /// The distance table of the state's boxes frozen on goals.
    pub table: TableId,
}

/// Elements per arena chunk.
const CHUNK: usize = 1 << 12;

/// A vector that grows in chunks of `CHUNK * width` elements and never moves what it holds.
#[derive(Debug)]
struct Chunked<T> {
    width: usize,
    chunks: Vec<Vec<T>>,
    len: usize,
    /// Elements allocated in all chunks.
    capacity: usize,
}

impl<T: Copy> Chunked<T> {
    fn new(width: usize) -> Chunked<T> {
        Chunked { width, chunks: Vec::new(), len: 0, capacity: 0 }
    }

    #[inline]
    fn get(&self, i: usize) -> &[T] {
        let at = (i % CHUNK) * self.width;
        &self.chunks[i / CHUNK][at..at + self.width]
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> &mut [T] {
        let at = (i % CHUNK) * self.width;
        &mut self.chunks[i / CHUNK][at..at + self.width]
    }

    fn push(&mut self, item: &[T]) {
        let full = CHUNK * self.width;
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::new());
        }
        let chunk = self.chunks.last_mut().expect("a chunk was just made");
        if chunk.len() == chunk.capacity() {
            // A chunk starts small and grows by a quarter up to its full size, so a small search
            // holds little more than it stores.
            let before = chunk.capacity();
            chunk.reserve_exact(Chunked::<T>::next_capacity(before, self.width, full) - before);
            self.capacity += chunk.capacity() - before;
        }
        chunk.extend_from_slice(item);
        self.len += 1;
    }

    fn next_capacity(capacity: usize, width: usize, full: usize) -> usize {
        (capacity + capacity / 4).next_multiple_of(width).max(64 * width).min(full)
    }

    /// Bytes allocated, and the bytes the next push would allocate.
    fn bytes(&self) -> (usize, usize) {
        let size = std::mem::size_of::<T>();
        let full = CHUNK * self.width;
        let held = self.capacity * size;
        let next = match self.chunks.last() {
            Some(c) if c.len() < c.capacity() => 0,
            Some(c) if c.len() < full => {
                (Chunked::<T>::next_capacity(c.capacity(), self.width, full) - c.capacity()) * size
            }
            _ => 64 * self.width * size,
        };
        (held, next)
    }
}

/// Every stored state of one search.
#[derive(Debug)]
pub struct NodeStore<G> {
    layout: KeyLayout,
    nodes: Chunked<Node<G>>,
    keys: Chunked<u64>,
    expanded: Vec<u64>,
    closed: HashTable<NodeId>,
}

impl<G: Copy> NodeStore<G> {
    /// An empty store for keys of `layout`.
    pub fn new(layout: KeyLayout) -> NodeStore<G> {
        NodeStore {
            layout,
            nodes: Chunked::new(1),
            keys: Chunked::new(layout.stride()),
            expanded: Vec::new(),
            closed: HashTable::new(),
        }
    }

    /// Number of stored states.
    pub fn len(&self) -> usize {
        self.nodes.len
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.nodes.len == 0
    }

    /// The key layout.
    pub fn layout(&self) -> &KeyLayout {
        &self.layout
    }

    /// The node data of `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<G> {
        &self.nodes.get(id.index())[0]
    }

    /// The node data of `id`, to update its cost and parent.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<G> {
        &mut self.nodes.get_mut(id.index())[0]
    }

    /// The key of `id`.
    #[inline]
    pub fn key(&self, id: NodeId) -> &[u64] {
        self.keys.get(id.index())
    }

    /// Whether `id` was expanded.
    #[inline]
    pub fn is_expanded(&self, id: NodeId) -> bool {
        self.expanded[id.index() / 64] >> (id.index() % 64) & 1 == 1
    }

    /// Marks `id` not expanded (to expand it again).
    #[inline]
    pub fn clear_expanded(&mut self, id: NodeId) {
        self.expanded[id.index() / 64] &= !(1 << (id.index() % 64));
    }

    /// Marks `id` expanded.
    #[inline]
    pub fn set_expanded(&mut self, id: NodeId) {
        self.expanded[id.index() / 64] |= 1 << (id.index() % 64);
    }

    /// The stored state with this key and player square, if any. `hash` is
    /// [`super::state::hash`] of both.
    #[inline]
    pub fn find(&self, key: &[u64], player: Sq, hash: u64) -> Option<NodeId> {
        self.closed.find(hash, |&id| self.node(id).player == player && self.key(id) == key).copied()
    }

    /// Stores a new state (it must not be stored already) and returns its handle, or `None`
    /// when the arena is full (4 billion states).
    pub fn insert(&mut self, key: &[u64], node: Node<G>, key_hash: u64) -> Option<NodeId> {
        let id = NodeId::new(self.nodes.len)?;
        self.nodes.push(&[node]);
        self.keys.push(key);
        if self.expanded.len() * 64 < self.nodes.len {
            self.expanded.push(0);
        }
        let (nodes, keys) = (&self.nodes, &self.keys);
        self.closed.insert_unique(key_hash, id, |&id| hash(keys.get(id.index()), nodes.get(id.index())[0].player));
        Some(id)
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.nodes.bytes().0 + self.keys.bytes().0 + self.expanded.capacity() * 8 + self.closed.capacity() * 5
    }

    /// Bytes that the next [`NodeStore::insert`] may allocate on top of [`NodeStore::bytes`]
    /// (a new chunk, or the closed table doubling).
    pub fn growth(&self) -> usize {
        let table =
            if self.closed.len() * 8 >= self.closed.capacity() * 7 { self.closed.capacity().max(4) * 2 * 5 } else { 0 };
        self.nodes.bytes().1 + self.keys.bytes().1 + table
    }

    /// The handles from the start to `id`, in path order.
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Analysis;
    use crate::format::parse_levels;

    #[test]
    fn nodes_are_16_bytes_in_the_pushes_mode() {
        assert_eq!(std::mem::size_of::<Node<u32>>(), 16);
    }

    #[test]
    fn finds_states_by_full_key_and_player() {
        let level = parse_levels("#######\n#@ $ .#\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let layout = KeyLayout::new(&a, 1);
        let mut store: NodeStore<u32> = NodeStore::new(layout);
        let key = vec![0b10u64];
        let node = Node { parent: None, g: 0, h: 1, player: Sq::new(3), table: TableId::STATIC };
        let h = hash(&key, node.player);
        let id = store.insert(&key, node, h).unwrap();
        assert_eq!(store.find(&key, Sq::new(3), h), Some(id));
        assert_eq!(store.find(&key, Sq::new(2), hash(&key, Sq::new(2))), None);
        // Same hash, other key: never merged.
        assert_eq!(store.find(&[0b100], Sq::new(3), h), None);
        assert!(!store.is_expanded(id));
        store.set_expanded(id);
        assert!(store.is_expanded(id));
        assert_eq!(store.path_to(id), vec![id]);
    }
}
