//! Open lists: the frontier of a best-first search, ordered by f = g + h ascending, then by g
//! descending (deeper first among equals), then by node handle ascending (older first), which
//! makes the search deterministic.
//!
//! Entries are never updated in place: a state reached again more cheaply is pushed again, and
//! the engine skips entries whose g no longer matches the node's (stale) when they come out.
//! [`Buckets`] is for small integer costs (pushes): one bucket per f, inside it one min-heap of
//! handles per g, so an entry is 4 bytes. [`Heap`] is a binary heap for any ordered cost.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::store::NodeId;

/// A frontier of node handles keyed by (f, g).
pub trait OpenList<G> {
    /// An empty list.
    fn new() -> Self;
    /// Adds `node` with costs `f` and `g`.
    fn push(&mut self, f: G, g: G, node: NodeId);
    /// Takes the entry with the smallest f, then the largest g, then the smallest handle.
    fn pop(&mut self) -> Option<(G, NodeId)>;
    /// Bytes held.
    fn bytes(&self) -> usize;
    /// Bytes the next push may allocate on top of [`OpenList::bytes`].
    fn growth(&self) -> usize;
}

/// Bucketed open list for `u32` costs.
#[derive(Debug, Default)]
pub struct Buckets {
    /// `buckets[f][g]`: handles with that f and g (`None` when there are none; boxed so an
    /// empty slot costs 8 bytes). Trailing empty slots are removed, so the last slot of a
    /// bucket holds its largest g.
    buckets: Vec<Vec<Option<Box<Heap4>>>>,
    /// No entry has an f below this.
    lowest: usize,
    len: usize,
    bytes: usize,
}

/// A min-heap of handles.
type Heap4 = BinaryHeap<Reverse<NodeId>>;

impl Buckets {
    fn heap_bytes(h: &Heap4) -> usize {
        h.capacity() * 4 + 24
    }
}

impl OpenList<u32> for Buckets {
    fn new() -> Buckets {
        Buckets::default()
    }

    fn push(&mut self, f: u32, g: u32, node: NodeId) {
        let (f, g) = (f as usize, g as usize);
        if self.buckets.len() <= f {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        let bucket = &mut self.buckets[f];
        if bucket.len() <= g {
            self.bytes += (g + 1 - bucket.len()) * 8;
            bucket.resize_with(g + 1, || None);
        }
        if bucket[g].is_none() {
            // A new heap: count its header before the push re-counts it with its buffer.
            self.bytes += Buckets::heap_bytes(&Heap4::new());
        }
        let heap = bucket[g].get_or_insert_with(Default::default);
        self.bytes -= Buckets::heap_bytes(heap);
        heap.push(Reverse(node));
        self.bytes += Buckets::heap_bytes(heap);
        self.lowest = self.lowest.min(f);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u32, NodeId)> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.lowest].is_empty() {
            // Nothing will enter this bucket again (f never drops below the smallest f in the
            // list under a consistent bound), so its memory goes back.
            self.lowest += 1;
        }
        let bucket = &mut self.buckets[self.lowest];
        let g = bucket.len() - 1;
        let heap = bucket[g].as_mut().expect("the last slot of a bucket is never empty");
        let Reverse(node) = heap.pop().expect("the last slot of a bucket is never empty");
        if heap.is_empty() {
            self.bytes -= Buckets::heap_bytes(heap);
            bucket[g] = None;
        }
        while bucket.last().is_some_and(Option::is_none) {
            bucket.pop();
            self.bytes -= 8;
        }
        if bucket.is_empty() {
            *bucket = Vec::new();
        }
        self.len -= 1;
        Some((g as u32, node))
    }

    fn bytes(&self) -> usize {
        self.bytes + self.buckets.capacity() * 24
    }

    fn growth(&self) -> usize {
        // One heap doubling; bounded by the largest heap, which is at most all entries.
        (self.len.max(4) * 4).min(1 << 20)
    }
}

/// One entry of [`Heap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry<G> {
    f: G,
    g: G,
    node: NodeId,
}

impl<G: Ord> Ord for Entry<G> {
    /// The max-heap pops the smallest f, then the largest g, then the oldest node.
    fn cmp(&self, other: &Entry<G>) -> Ordering {
        other.f.cmp(&self.f).then(self.g.cmp(&other.g)).then(other.node.cmp(&self.node))
    }
}

impl<G: Ord> PartialOrd for Entry<G> {
    fn partial_cmp(&self, other: &Entry<G>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Binary-heap open list for any ordered cost.
#[derive(Debug)]
pub struct Heap<G> {
    heap: BinaryHeap<Entry<G>>,
}

impl<G: Ord + Copy> OpenList<G> for Heap<G> {
    fn new() -> Heap<G> {
        Heap { heap: BinaryHeap::new() }
    }

    fn push(&mut self, f: G, g: G, node: NodeId) {
        self.heap.push(Entry { f, g, node });
    }

    fn pop(&mut self) -> Option<(G, NodeId)> {
        self.heap.pop().map(|e| (e.g, e.node))
    }

    fn bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<Entry<G>>()
    }

    fn growth(&self) -> usize {
        if self.heap.len() == self.heap.capacity() { self.bytes().max(64) } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: usize) -> NodeId {
        NodeId::for_tests(i)
    }

    fn drain<O: OpenList<u32>>(mut open: O) -> Vec<(u32, usize)> {
        for (f, g, n) in [(5, 1, 3), (4, 0, 9), (5, 3, 7), (5, 3, 2), (4, 2, 8), (6, 6, 1)] {
            open.push(f, g, id(n));
        }
        std::iter::from_fn(|| open.pop()).map(|(g, n)| (g, n.index())).collect()
    }

    #[test]
    fn buckets_and_heap_pop_in_the_same_order() {
        let expected = vec![(2, 8), (0, 9), (3, 2), (3, 7), (1, 3), (6, 1)];
        assert_eq!(drain(Buckets::new()), expected);
        assert_eq!(drain(Heap::<u32>::new()), expected);
    }
}
