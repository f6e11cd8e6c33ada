//! Minimum-cost assignment (the Hungarian method with potentials), O(n²·m) for an n×m matrix
//! with n ≤ m. Buffers are kept between calls: the solver calls it for every generated state.
//!
//! Checked against `pathfinding::kuhn_munkres` in the tests.

/// A cost at or above this marks a forbidden pair.
pub const FORBIDDEN: i64 = 1 << 40;

/// Reusable scratch for [`Hungarian::solve`].
#[derive(Debug, Default, Clone)]
pub struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// The duals and matching saved by [`Hungarian::save`], the start of [`Hungarian::resolve_row`].
    saved_u: Vec<i64>,
    saved_v: Vec<i64>,
    saved_p: Vec<usize>,
}

impl Hungarian {
    /// Minimum total cost of assigning each of `rows` rows to a distinct column out of `cols`,
    /// where `cost(r, c)` gives the costs (`r < rows`, `c < cols`, `rows <= cols`). Returns `None`
    /// when every assignment uses a forbidden pair.
    pub fn solve(&mut self, rows: usize, cols: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        debug_assert!(rows <= cols);
        if rows == 0 {
            return Some(0);
        }
        let (n, m) = (rows, cols);
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.p.clear();
        self.p.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
            self.add_row(i, m, &cost);
        }
        let total = -self.v[0];
        (total < FORBIDDEN).then_some(total)
    }

    /// Remembers the duals and matching of the last solve, for [`Hungarian::resolve_row`].
    pub fn save(&mut self) {
        self.saved_u.clone_from(&self.u);
        self.saved_v.clone_from(&self.v);
        self.saved_p.clone_from(&self.p);
    }

    /// The optimum of the saved square `n`×`n` problem after the costs of row `row` changed to
    /// `cost(row, ·)` (the other rows' costs must be the saved ones): O(n²) instead of O(n³).
    ///
    /// Why it is exact: the other rows keep feasible, tight duals; the changed row gets the
    /// smallest feasible dual, and one shortest augmenting path re-inserts it. In a square
    /// problem every augmenting path ends at the one column the row released, so that column's
    /// dual adds the same constant to every path and cannot bias the choice. (With more columns
    /// than rows it could, which is why this is square only.)
    pub fn resolve_row(&mut self, n: usize, row: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        debug_assert_eq!(self.saved_p.len(), n + 1);
        self.u.clone_from(&self.saved_u);
        self.v.clone_from(&self.saved_v);
        self.p.clone_from(&self.saved_p);
        let i = row + 1;
        for j in 1..=n {
            if self.p[j] == i {
                self.p[j] = 0;
            }
        }
        self.u[i] = (1..=n).map(|j| cost(row, j - 1) - self.v[j]).min().unwrap_or(0);
        self.add_row(i, n, &cost);
        let total: i64 = (1..=n).filter(|&j| self.p[j] != 0).map(|j| cost(self.p[j] - 1, j - 1)).sum();
        (total < FORBIDDEN).then_some(total)
    }

    /// One phase of the method: inserts row `i` (1-based) into the matching along a shortest
    /// augmenting path in reduced costs, updating the duals.
    fn add_row(&mut self, i: usize, m: usize, cost: &impl Fn(usize, usize) -> i64) {
        self.p[0] = i;
        let mut j0 = 0;
        self.minv.clear();
        self.minv.resize(m + 1, i64::MAX);
        self.used.clear();
        self.used.resize(m + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.p[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            for j in 1..=m {
                if !self.used[j] {
                    let cur = cost(i0 - 1, j - 1) - self.u[i0] - self.v[j];
                    if cur < self.minv[j] {
                        self.minv[j] = cur;
                        self.way[j] = j0;
                    }
                    if self.minv[j] < delta {
                        delta = self.minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if self.used[j] {
                    self.u[self.p[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.minv[j] -= delta;
                }
            }
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.p[j0] = self.p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathfinding::matrix::Matrix;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agrees_with_kuhn_munkres(rows in 1usize..7, extra in 0usize..3, seed in proptest::collection::vec(0i64..50, 100)) {
            let cols = rows + extra;
            let cost = |r: usize, c: usize| seed[(r * cols + c) % seed.len()] + (r * 7 + c * 3) as i64 % 11;
            let ours = Hungarian::default().solve(rows, cols, cost).unwrap();
            // kuhn_munkres maximises, so negate.
            let m = Matrix::from_fn(rows, cols, |(r, c)| -cost(r, c));
            let (theirs, _) = pathfinding::kuhn_munkres::kuhn_munkres(&m);
            prop_assert_eq!(ours, -theirs);
        }
    }

    proptest! {
        #[test]
        fn resolving_one_row_equals_solving_afresh(
            n in 1usize..8,
            row in 0usize..8,
            forbid in 0usize..4,
            seed in proptest::collection::vec(0i64..30, 64),
            changed in proptest::collection::vec(0i64..30, 8),
        ) {
            let row = row % n;
            let old = |r: usize, c: usize| {
                if (r + c) % 5 == forbid { FORBIDDEN } else { seed[(r * n + c) % seed.len()] }
            };
            let new = |r: usize, c: usize| match (r == row, changed[c]) {
                (true, x) if x >= 27 => FORBIDDEN,
                (true, x) => x,
                _ => old(r, c),
            };
            let mut h = Hungarian::default();
            if h.solve(n, n, old).is_some() {
                h.save();
                let incremental = h.resolve_row(n, row, new);
                let fresh = Hungarian::default().solve(n, n, new);
                prop_assert_eq!(incremental, fresh);
                // The saved state is reusable for the next row change.
                let again = h.resolve_row(n, row, old);
                prop_assert_eq!(again, Hungarian::default().solve(n, n, old));
            }
        }
    }

    #[test]
    fn forbidden_pairs_make_it_infeasible() {
        let cost = |r: usize, c: usize| if c == 0 { r as i64 } else { FORBIDDEN };
        assert_eq!(Hungarian::default().solve(2, 2, cost), None);
        assert_eq!(Hungarian::default().solve(1, 2, cost), Some(0));
    }
}
