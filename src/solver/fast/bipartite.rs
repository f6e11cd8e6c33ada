//! Bipartite matching by augmenting paths (Kuhn) over rows and columns kept as bit rows: the
//! bases search's test that the boxes left can still each take a start square of their own
//! after a base move (`bases.rs`), and the packing plan's test that the start boxes can still
//! fill the goals left (`packing.rs`). Both ask only whether a matching covers every row, so
//! no costs: a row's free columns are found a word at a time.
//!
//! A base move is matched from one matching of every row per state ([`Edges::matched_without`]):
//! the pairs it keeps stand, and only the rows it frees need an augmenting path each.

/// Which of `columns` columns (bases, start squares) each row (a box, a goal) may take: a row
/// of `words` words for each of the `rows`, a bit for each column.
pub(super) struct Edges {
    rows: usize,
    columns: usize,
    words: usize,
    bits: Vec<u64>,
}

/// A column no row of the matching has.
pub(super) const FREE: usize = usize::MAX;

impl Edges {
    /// The edges of `rows` rows and `columns` columns where `edge(row, column)` says so.
    pub(super) fn new(rows: usize, columns: usize, mut edge: impl FnMut(usize, usize) -> bool) -> Edges {
        let words = columns.div_ceil(64);
        let mut bits = vec![0; rows * words];
        for i in 0..rows {
            for j in (0..columns).filter(|&j| edge(i, j)) {
                bits[i * words + j / 64] |= 1 << (j % 64);
            }
        }
        Edges { rows, columns, words, bits }
    }

    /// A maximum matching of the boxes to the bases: `owner[j]` is base `j`'s box, [`FREE`]
    /// where it has none.
    pub(super) fn matching(&self) -> Vec<usize> {
        let mut owner = vec![FREE; self.columns];
        for i in 0..self.rows {
            self.augment(i, &mut owner, &mut self.unseen(None));
        }
        owner
    }

    /// Whether some matching covers every row.
    pub(super) fn covers_every_row(&self) -> bool {
        let mut owner = vec![FREE; self.columns];
        (0..self.rows).all(|i| self.augment(i, &mut owner, &mut self.unseen(None)))
    }

    /// Whether every box but box `i` can take a base but base `t` of its own, from `owner`, a
    /// maximum matching of all of them ([`Edges::matching`]): the matching less the two keeps
    /// its other pairs, and only the boxes it then leaves free (the one that had base `t`, and
    /// those a maximum matching leaves) need an augmenting path each, instead of a matching
    /// from scratch for each base move tried.
    pub(super) fn matched_without(&self, owner: &[usize], (i, t): (usize, usize)) -> bool {
        let mut owner = owner.to_vec();
        if let Some(o) = owner.iter_mut().find(|o| **o == i) {
            *o = FREE;
        }
        owner[t] = FREE;
        let mut taken = vec![false; self.rows];
        for &o in owner.iter().filter(|&&o| o != FREE) {
            taken[o] = true;
        }
        (0..taken.len())
            .filter(|&k| k != i && !taken[k])
            .all(|k| self.augment(k, &mut owner, &mut self.unseen(Some(t))))
    }

    /// The bases an augmenting path may enter: all but `out`.
    fn unseen(&self, out: Option<usize>) -> Vec<u64> {
        let mut seen = vec![0; self.words];
        if let Some(t) = out {
            seen[t / 64] |= 1 << (t % 64);
        }
        seen
    }

    /// Kuhn's augmenting path from box `i` over the bases not in `seen`. Tried once from each
    /// free box in turn, from any matching, it ends with a maximum one: a box it fails from
    /// is left free by some maximum matching.
    fn augment(&self, i: usize, owner: &mut [usize], seen: &mut [u64]) -> bool {
        for w in 0..self.words {
            loop {
                let open = self.bits[i * self.words + w] & !seen[w];
                if open == 0 {
                    break;
                }
                let j = w * 64 + open.trailing_zeros() as usize;
                seen[w] |= open & open.wrapping_neg();
                if owner[j] == FREE || self.augment(owner[j], owner, seen) {
                    owner[j] = i;
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the boxes but `i` match the bases but `t`, from scratch.
    fn matched_from_scratch(edges: &Edges, (i, t): (usize, usize)) -> bool {
        let mut owner = vec![FREE; edges.columns];
        (0..edges.rows).filter(|&k| k != i).all(|k| edges.augment(k, &mut owner, &mut edges.unseen(Some(t))))
    }

    #[test]
    fn a_base_move_is_matched_from_the_whole_matching_as_from_scratch() {
        // Random sparse graphs, some with no perfect matching, over more than a word of bases.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut matched, mut unmatched) = (0, 0);
        for round in 0..300usize {
            let (boxes, bases) = (1 + round % 9 * 9, 1 + round % 9 * 9 + round % 3);
            let density = 4 + round as u64 % 20;
            let edges = Edges::new(boxes, bases, |_, _| next() % 100 < density);
            let owner = edges.matching();
            let covered = owner.iter().filter(|&&o| o != FREE).count() == boxes;
            assert_eq!(edges.covers_every_row(), covered, "round {round}");
            for _ in 0..10 {
                let (i, t) = (next() as usize % boxes, next() as usize % bases);
                let fast = edges.matched_without(&owner, (i, t));
                assert_eq!(fast, matched_from_scratch(&edges, (i, t)), "round {round}: box {i}, base {t}");
                if fast { matched += 1 } else { unmatched += 1 }
            }
        }
        assert!(matched > 100 && unmatched > 100, "{matched} matched, {unmatched} not");
    }
}
