//! Shared helpers for integration tests: a seeded generator of small random levels.
#![allow(dead_code)]

/// A small xorshift generator, so generated levels are reproducible from a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// XSB text of a random closed room of `w`×`h` interior cells with some inner walls, `boxes`
/// boxes, as many goals, and a player. Returns `None` when the room is too cramped.
pub fn random_level(seed: u64, w: usize, h: usize, boxes: usize, wall_percent: usize) -> Option<String> {
    let mut rng = Rng::new(seed);
    let mut grid = vec![vec![b'#'; w + 2]; h + 2];
    let mut free = Vec::new();
    for (r, row) in grid.iter_mut().enumerate().take(h + 1).skip(1) {
        for (c, cell) in row.iter_mut().enumerate().take(w + 1).skip(1) {
            if rng.below(100) >= wall_percent {
                *cell = b' ';
                free.push((r, c));
            }
        }
    }
    if free.len() < boxes + 1 {
        return None;
    }
    // Shuffle the free cells and take goals, boxes and the player from the front.
    for i in (1..free.len()).rev() {
        free.swap(i, rng.below(i + 1));
    }
    for &(r, c) in &free[..boxes] {
        grid[r][c] = b'.';
    }
    let mut taken = free.clone();
    for i in (1..taken.len()).rev() {
        taken.swap(i, rng.below(i + 1));
    }
    for &(r, c) in &taken[..boxes] {
        grid[r][c] = if grid[r][c] == b'.' { b'*' } else { b'$' };
    }
    let player = taken[boxes..].iter().find(|&&(r, c)| grid[r][c] == b' ' || grid[r][c] == b'.')?;
    grid[player.0][player.1] = if grid[player.0][player.1] == b'.' { b'+' } else { b'@' };
    let rows: Vec<String> = grid.into_iter().map(|r| String::from_utf8(r).expect("ascii")).collect();
    Some(rows.join("\n") + "\n")
}
