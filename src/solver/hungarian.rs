//! Minimum-cost assignment (the Hungarian method with potentials), O(n²·m) for an n×m matrix
//! with n ≤ m. Buffers are kept between calls: the solver calls it for every generated state.
//!
//! Checked against `pathfinding::kuhn_munkres` in the tests.

/// A cost at or above this marks a forbidden pair. Costs are clamped to
/// `-FORBIDDEN..=FORBIDDEN`, so no sum or dual can overflow (even for `i64::MAX` or `i64::MIN`).
pub const FORBIDDEN: i64 = 1 << 40;

/// A cost as the method uses it: clamped so that sums of up to 2²² of them fit in an `i64`.
#[inline]
fn clamped(cost: i64) -> i64 {
    cost.clamp(-FORBIDDEN, FORBIDDEN)
}

/// A [`Hungarian::solve_within`] that its stop check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// Reusable scratch for [`Hungarian::solve`].
#[derive(Debug, Default, Clone)]
pub struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
    /// The columns used in the current phase, with the running total of shifts when each
    /// joined (see `add_row`).
    joined: Vec<(usize, i64)>,
    /// The duals and matching saved by [`Hungarian::save`], the start of
    /// [`Hungarian::resolve_row`].
    saved_u: Vec<i64>,
    saved_v: Vec<i64>,
    saved_p: Vec<usize>,
    /// The sum of the saved duals (the saved optimum when the problem was square and feasible).
    saved_sum: i64,
    /// Counts the saves and restores (see [`Hungarian::saved_generation`]).
    saved_generation: u64,
}

/// A solved problem's duals of rows and columns and its matching (`p[column]`: 1-based row, 0
/// for none), kept apart from the solver ([`Hungarian::keep`]) for a later
/// [`Hungarian::restore`]: what the searches keep of the states they expanded lately.
#[derive(Debug, Default, Clone)]
pub struct Kept {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
}

/// A state's saved matching ([`Kept`]) with what says whose it is: the state's `id`, the
/// cost `table` it was solved over and its `boxes` (the rows, in order). The entry the
/// searches keep for each state they expanded lately, to re-solve a child's matching from
/// its parent's (A*'s bound and the fast engine's picked states).
#[derive(Debug)]
pub struct KeptState<Id, Table, B> {
    /// The state's id (`None`: the entry holds nothing yet).
    pub id: Option<Id>,
    /// The cost table its matching was solved over.
    pub table: Table,
    /// Its boxes, one per row, in the rows' order.
    pub boxes: Vec<B>,
    /// The matching and its duals.
    pub duals: Kept,
}

impl<Id, Table: Default, B> Default for KeptState<Id, Table, B> {
    fn default() -> Self {
        KeptState { id: None, table: Table::default(), boxes: Vec::new(), duals: Kept::default() }
    }
}

impl<Id: PartialEq, Table: PartialEq, B: Copy> KeptState<Id, Table, B> {
    /// Keeps `hungarian`'s saved matching as state `id`'s, solved over `table` with `boxes`.
    pub fn set(&mut self, id: Option<Id>, table: Table, boxes: &[B], hungarian: &Hungarian) {
        (self.id, self.table) = (id, table);
        self.boxes.clear();
        self.boxes.extend_from_slice(boxes);
        hungarian.keep(&mut self.duals);
    }

    /// Whether this is state `id`'s matching over `table`.
    pub fn is(&self, id: &Id, table: &Table) -> bool {
        self.id.as_ref() == Some(id) && self.table == *table
    }
}

impl Hungarian {
    /// Minimum total cost of assigning each of `rows` rows to a distinct column out of `cols`,
    /// where `cost(r, c)` gives the costs (`r < rows`, `c < cols`). Returns `None` when every
    /// assignment uses a forbidden pair (a cost of at least [`FORBIDDEN`]), and when `rows >
    /// cols`, as no assignment exists then. Costs below `-FORBIDDEN` count as `-FORBIDDEN`.
    pub fn solve(&mut self, rows: usize, cols: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        // A check that never stops never gives `Err`.
        self.solve_within(rows, cols, cost, &mut || false).ok().flatten()
    }

    /// Like [`Hungarian::solve`], but calls `stop` before each row is added (O(rows·cols) work
    /// at most between calls) and gives up with [`Stopped`] when it returns true, so a big
    /// problem (a level with a thousand boxes) can be interrupted.
    pub fn solve_within(
        &mut self,
        rows: usize,
        cols: usize,
        cost: impl Fn(usize, usize) -> i64,
        stop: &mut impl FnMut() -> bool,
    ) -> Result<Option<i64>, Stopped> {
        if rows == 0 {
            return Ok(Some(0));
        }
        if rows > cols {
            return Ok(None);
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
            if stop() {
                return Err(Stopped);
            }
            self.add_row::<false>(i, m, &cost);
        }
        Ok(self.matched_total(m, &cost))
    }

    /// The total of the current matching over `m` columns, or `None` if it uses a forbidden pair.
    fn matched_total(&self, m: usize, cost: &impl Fn(usize, usize) -> i64) -> Option<i64> {
        let mut total = 0i64;
        for j in 1..=m {
            if self.p[j] != 0 {
                let c = clamped(cost(self.p[j] - 1, j - 1));
                if c >= FORBIDDEN {
                    return None;
                }
                total += c;
            }
        }
        Some(total)
    }

    /// The optimum of the saved problem (the sum of its duals: square and feasible problems
    /// only), or `None` when nothing was saved.
    pub fn saved_value(&self) -> Option<i64> {
        (!self.saved_p.is_empty()).then_some(self.saved_sum)
    }

    /// Remembers the duals and matching of the last solve, for [`Hungarian::resolve_row`].
    pub fn save(&mut self) {
        self.saved_u.clone_from(&self.u);
        self.saved_v.clone_from(&self.v);
        self.saved_p.clone_from(&self.p);
        self.saved_sum = self.u.iter().skip(1).sum::<i64>() + self.v.iter().skip(1).sum::<i64>();
        self.saved_generation += 1;
    }

    /// A number that changes whenever the saved duals do: a [`Hungarian::row_fit`] holds while
    /// it stays the same.
    pub fn saved_generation(&self) -> u64 {
        self.saved_generation
    }

    /// Copies the saved duals of rows and columns and the saved matching into `kept`, to be
    /// brought back with [`Hungarian::restore`].
    pub fn keep(&self, kept: &mut Kept) {
        kept.u.clone_from(&self.saved_u);
        kept.v.clone_from(&self.saved_v);
        kept.p.clone_from(&self.saved_p);
    }

    /// Makes a state [`Hungarian::keep`] kept the saved one again, its rows renumbered: old
    /// row `r` (0-based) becomes row `rows[r]`, so that [`Hungarian::resolve_rows`] can
    /// re-solve a problem whose rows are the old ones in another order, some of them changed.
    /// `rows` must be a permutation of `0..n` for the `n` rows kept.
    pub fn restore(&mut self, kept: &Kept, rows: &[usize]) {
        let Kept { u, v, p } = kept;
        self.saved_u.clear();
        self.saved_u.resize(u.len(), 0);
        self.saved_u[0] = u.first().copied().unwrap_or(0);
        for (old, &new) in rows.iter().enumerate() {
            self.saved_u[new + 1] = u[old + 1];
        }
        self.saved_v.clear();
        self.saved_v.extend_from_slice(v);
        self.saved_p.clear();
        self.saved_p.extend(p.iter().map(|&r| if r == 0 { 0 } else { rows[r - 1] + 1 }));
        self.saved_sum = self.saved_u.iter().skip(1).sum::<i64>() + self.saved_v.iter().skip(1).sum::<i64>();
        self.saved_generation += 1;
    }

    /// The optimum of the saved square `n`×`n` problem after the costs of row `row` changed to
    /// `cost(row, ·)` (the other rows' costs must be the saved ones): O(n²) instead of O(n³).
    ///
    /// Why it is exact: the other rows keep feasible, tight duals; the changed row gets the
    /// smallest feasible dual, and one shortest augmenting path re-inserts it. In a square
    /// problem every augmenting path ends at the one column the row released, so that column's
    /// dual adds the same constant to every path and cannot bias the choice. (With more columns
    /// than rows it could, which is why this is square only.)
    ///
    /// Returns `None` (as for an infeasible problem) when nothing of size `n` was saved or `row`
    /// is not below `n`.
    pub fn resolve_row(&mut self, n: usize, row: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        self.resolve_rows(n, &[row], cost)
    }

    /// Like [`Hungarian::resolve_row`] for several changed rows `rows` (distinct, each below
    /// `n`): O(rows·n²). The unchanged rows keep feasible, tight duals; each changed row is
    /// taken out of the matching and put back along a shortest augmenting path, one after
    /// another (an augmentation only lowers column duals, so the rows still out stay feasible).
    pub fn resolve_rows(&mut self, n: usize, rows: &[usize], cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        self.resolve::<false>(n, rows, cost)
    }

    /// The optimum [`Hungarian::resolve_row`] returns, for a caller that wants no more of it
    /// (not the duals or the matching, which the next call starts again from the saved ones):
    /// where columns tie for the shortest path it takes a free one, which ends the path at
    /// once. Push distances tie often, and many paths end steps sooner; the duals can be other
    /// optimal ones, the optimum is the same.
    pub fn resolve_row_value(&mut self, n: usize, row: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        self.resolve::<true>(n, &[row], cost)
    }

    /// [`Hungarian::resolve_rows`], ties going to a free column when `FREE_FIRST`.
    fn resolve<const FREE_FIRST: bool>(
        &mut self,
        n: usize,
        rows: &[usize],
        cost: impl Fn(usize, usize) -> i64,
    ) -> Option<i64> {
        let saved = self.saved_p.len() == n + 1 && self.saved_u.len() == n + 1 && self.saved_v.len() == n + 1;
        if !saved || rows.iter().any(|&r| r >= n) {
            return None;
        }
        self.u.clone_from(&self.saved_u);
        self.v.clone_from(&self.saved_v);
        self.p.clone_from(&self.saved_p);
        self.way.clear();
        self.way.resize(n + 1, 0);
        for j in 1..=n {
            if rows.contains(&(self.p[j].wrapping_sub(1))) {
                self.p[j] = 0;
            }
        }
        for &row in rows {
            let i = row + 1;
            self.u[i] = (1..=n).map(|j| clamped(cost(row, j - 1)) - self.v[j]).min().unwrap_or(0);
            self.add_row::<FREE_FIRST>(i, n, &cost);
        }
        self.matched_total(n, &cost)
    }

    /// A lower bound on what [`Hungarian::resolve_row`] would return for the same arguments, in
    /// O(n): the saved duals stay feasible when row `row`'s dual is lowered to fit its new
    /// costs, and any feasible duals' sum bounds the optimum from below. `None` when nothing of
    /// size `n` was saved or `row` is not below `n`.
    pub fn row_bound(&self, n: usize, row: usize, cost: impl Fn(usize, usize) -> i64) -> Option<i64> {
        self.row_bound_of(n, row, (0..n).map(|c| cost(row, c)))
    }

    /// [`Hungarian::row_bound`] with row `row`'s new costs given in column order (`n` of
    /// them; a shorter list gives `None`), for a caller that has them at hand as a slice.
    pub fn row_bound_of(&self, n: usize, row: usize, costs: impl IntoIterator<Item = i64>) -> Option<i64> {
        self.row_bound_with(n, row, self.row_fit(n, costs)?)
    }

    /// The dual [`Hungarian::row_bound`] lowers a row with costs `costs` (in column order, `n`
    /// of them) to: its least cost less the saved column's dual. It depends on the costs alone,
    /// not on the row they replace, so rows with the same costs share it. `None` when nothing
    /// of size `n` was saved or the list is shorter.
    pub fn row_fit(&self, n: usize, costs: impl IntoIterator<Item = i64>) -> Option<i64> {
        if self.saved_v.len() != n + 1 {
            return None;
        }
        let (mut fitted, mut seen) = (i64::MAX, 0);
        for (c, &v) in costs.into_iter().zip(&self.saved_v[1..]) {
            fitted = fitted.min(clamped(c) - v);
            seen += 1;
        }
        (seen == n).then_some(fitted)
    }

    /// [`Hungarian::row_bound`] of row `row` given its new costs' [`Hungarian::row_fit`].
    pub fn row_bound_with(&self, n: usize, row: usize, fit: i64) -> Option<i64> {
        if self.saved_u.len() != n + 1 || self.saved_v.len() != n + 1 || row >= n {
            return None;
        }
        Some(self.saved_sum - self.saved_u[row + 1] + fit)
    }

    /// One phase of the method: inserts row `i` (1-based) into the matching along a shortest
    /// augmenting path in reduced costs, updating the duals.
    ///
    /// The textbook phase shifts every used column's duals and every other column's slack by
    /// each step's `delta`; here the shifts are kept as one running total instead: a column's
    /// slack is stored plus the total when it was last lowered, and each used column remembers
    /// the total when it joined, its duals shifted once at the end by what came after. The
    /// same integers come out (the same duals, matching and ties), with one pass over the
    /// columns per step instead of two. With `FREE_FIRST` a free column wins a tie for the
    /// next step (see [`Hungarian::resolve_row_value`]).
    fn add_row<const FREE_FIRST: bool>(&mut self, i: usize, m: usize, cost: &impl Fn(usize, usize) -> i64) {
        self.p[0] = i;
        let mut j0 = 0;
        self.minv.clear();
        self.minv.resize(m + 1, i64::MAX);
        self.used.clear();
        self.used.resize(m + 1, false);
        self.joined.clear();
        let mut total = 0i64;
        loop {
            self.used[j0] = true;
            self.joined.push((j0, total));
            let i0 = self.p[j0];
            let base = self.u[i0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            let columns =
                self.used[1..=m].iter().zip(&mut self.minv[1..=m]).zip(&mut self.way[1..=m]).zip(&self.v[1..=m]);
            for (j, (((&used, minv), way), &v)) in (1..).zip(columns) {
                if !used {
                    let cur = clamped(cost(i0 - 1, j - 1)) - base - v + total;
                    if cur < *minv {
                        *minv = cur;
                        *way = j0;
                    }
                    let slack = *minv - total;
                    if slack < delta || (FREE_FIRST && slack == delta && self.p[j] == 0) {
                        delta = slack;
                        j1 = j;
                    }
                }
            }
            total += delta;
            j0 = j1;
            if self.p[j0] == 0 {
                break;
            }
        }
        for &(j, at) in &self.joined {
            let shift = total - at;
            self.u[self.p[j]] += shift;
            self.v[j] -= shift;
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

    prop_compose! {
        /// A square problem of `n` rows with costs drawn from `seed`, the row to change and
        /// the costs it changes to.
        fn row_change()(
            n in 1usize..8,
            row in 0usize..8,
            seed in proptest::collection::vec(0i64..30, 64),
            changed in proptest::collection::vec(0i64..30, 8),
        ) -> (usize, usize, Vec<i64>, Vec<i64>) {
            (n, row % n, seed, changed)
        }
    }

    proptest! {
        #[test]
        fn resolving_one_row_equals_solving_afresh((n, row, seed, changed) in row_change(), forbid in 0usize..4) {
            let old = |r: usize, c: usize| {
                if (r + c) % 5 == forbid { FORBIDDEN } else { seed[(r * n + c) % seed.len()] }
            };
            let new = |r: usize, c: usize| match (r == row, changed[c]) {
                (true, x) if x >= 27 => FORBIDDEN,
                (true, x) => x,
                _ => old(r, c),
            };
            let mut h = Hungarian::default();
            if let Some(optimum) = h.solve(n, n, old) {
                h.save();
                let incremental = h.resolve_row(n, row, new);
                let fresh = Hungarian::default().solve(n, n, new);
                prop_assert_eq!(incremental, fresh);
                // Ties broken towards free columns, the same optimum; with costs of few values
                // (many ties) too.
                prop_assert_eq!(h.resolve_row_value(n, row, new), fresh);
                let tied = |r: usize, c: usize| new(r, c).min(FORBIDDEN) % 3 + new(r, c) / FORBIDDEN * FORBIDDEN;
                let mut t = Hungarian::default();
                if t.solve(n, n, |r, c| old(r, c) % 3 + old(r, c) / FORBIDDEN * FORBIDDEN).is_some() {
                    t.save();
                    prop_assert_eq!(t.resolve_row_value(n, row, tied), Hungarian::default().solve(n, n, tied));
                }
                // The O(n) bound is below the new optimum, and exact for an unchanged row.
                if let Some(fresh) = fresh {
                    prop_assert!(h.row_bound(n, row, new).unwrap() <= fresh);
                }
                prop_assert_eq!(h.row_bound(n, row, old), Some(optimum));
                // The saved state is reusable for the next row change.
                let again = h.resolve_row(n, row, old);
                prop_assert_eq!(again, Hungarian::default().solve(n, n, old));
            }
        }
    }

    proptest! {
        #[test]
        fn resolving_from_a_restored_state_with_rows_renumbered_equals_solving_afresh(
            (n, row, seed, changed) in row_change(),
            shift in 0usize..8,
        ) {
            let old = |r: usize, c: usize| seed[(r * n + c) % seed.len()];
            // The new problem lists the old rows rotated by `shift`, old row `row` changed.
            let rows: Vec<usize> = (0..n).map(|r| (r + shift) % n).collect();
            let mut back = vec![0; n];
            for (o, &r) in rows.iter().enumerate() {
                back[r] = o;
            }
            let new = |r: usize, c: usize| if back[r] == row { changed[c] } else { old(back[r], c) };
            let mut kept = Hungarian::default();
            prop_assert!(kept.solve(n, n, old).is_some());
            kept.save();
            let mut duals = Kept::default();
            kept.keep(&mut duals);
            let mut h = Hungarian::default();
            h.restore(&duals, &rows);
            prop_assert_eq!(h.resolve_row(n, rows[row], new), Hungarian::default().solve(n, n, new));
            // Several rows changed at once, some costs forbidden.
            let several: Vec<usize> = (0..n).filter(|r| changed[(r + shift) % changed.len()] % 3 == 0).collect();
            let newer = |r: usize, c: usize| match (several.contains(&r), changed[(r * 3 + c) % changed.len()]) {
                (true, x) if x >= 27 => FORBIDDEN,
                (true, x) => x,
                _ => old(back[r], c),
            };
            prop_assert_eq!(h.resolve_rows(n, &several, newer), Hungarian::default().solve(n, n, newer));
        }
    }

    /// The textbook phase (every shift applied at once), against which `add_row`'s running
    /// total is checked: the same duals and matching, not only the same optimum.
    fn textbook_solve(
        rows: usize,
        cols: usize,
        cost: impl Fn(usize, usize) -> i64,
    ) -> (Vec<i64>, Vec<i64>, Vec<usize>) {
        let (mut u, mut v, mut p, mut way) =
            (vec![0; rows + 1], vec![0; cols + 1], vec![0; cols + 1], vec![0; cols + 1]);
        for i in 1..=rows {
            p[0] = i;
            let mut j0 = 0;
            let (mut minv, mut used) = (vec![i64::MAX; cols + 1], vec![false; cols + 1]);
            loop {
                used[j0] = true;
                let (i0, mut delta, mut j1) = (p[j0], i64::MAX, 0);
                for j in 1..=cols {
                    if !used[j] {
                        let cur = clamped(cost(i0 - 1, j - 1)) - u[i0] - v[j];
                        if cur < minv[j] {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if minv[j] < delta {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for j in 0..=cols {
                    if used[j] {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
                if p[j0] == 0 {
                    break;
                }
            }
            while j0 != 0 {
                let j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
            }
        }
        (u, v, p)
    }

    proptest! {
        #[test]
        fn the_running_total_gives_the_textbook_duals(rows in 1usize..9, extra in 0usize..3, seed in proptest::collection::vec(0i64..40, 81), forbid in 0usize..6) {
            let cols = rows + extra;
            // Few distinct costs, so ties are common; some pairs forbidden.
            let cost = |r: usize, c: usize| if (r * 3 + c) % 7 == forbid { FORBIDDEN } else { seed[(r * cols + c) % seed.len()] / 8 };
            let mut h = Hungarian::default();
            h.solve(rows, cols, cost);
            prop_assert_eq!((h.u, h.v, h.p), textbook_solve(rows, cols, cost));
        }
    }

    #[test]
    fn bad_calls_answer_instead_of_looping_or_overflowing() {
        // More rows than columns: no assignment exists (this used to loop forever).
        assert_eq!(Hungarian::default().solve(3, 2, |_, _| 1), None);
        // Huge costs are forbidden pairs, not an overflow into a small total.
        assert_eq!(Hungarian::default().solve(2, 2, |_, _| i64::MAX), None);
        assert_eq!(Hungarian::default().solve(2, 2, |r, c| if r == c { i64::MAX } else { 5 }), Some(10));
        assert_eq!(Hungarian::default().solve(2, 2, |_, _| i64::MIN), Some(-2 * FORBIDDEN));
        assert_eq!(Hungarian::default().solve(2, 2, |r, c| -((r * 2 + c) as i64) * 1_000_000), Some(-3_000_000));
        // Resolving without a saved problem of that size.
        assert_eq!(Hungarian::default().resolve_row(3, 1, |_, _| 1), None);
        let mut h = Hungarian::default();
        assert_eq!(h.solve(2, 2, |r, c| (r + c) as i64), Some(2));
        h.save();
        assert_eq!(h.resolve_row(2, 5, |_, _| 1), None);
        assert_eq!(h.resolve_row(3, 0, |_, _| 1), None);
    }

    #[test]
    fn forbidden_pairs_make_it_infeasible() {
        let cost = |r: usize, c: usize| if c == 0 { r as i64 } else { FORBIDDEN };
        assert_eq!(Hungarian::default().solve(2, 2, cost), None);
        assert_eq!(Hungarian::default().solve(1, 2, cost), Some(0));
    }
}
