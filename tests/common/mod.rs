//! Shared helpers for integration tests: a seeded generator of small random levels, and a big
//! generated room for the limit tests.
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

/// XSB text of a solvable level made by reverse play: boxes start on goals and the player walks
/// randomly for `steps` steps, pulling the box behind it half the time.
pub fn pulled_level(seed: u64, w: usize, h: usize, boxes: usize, wall_percent: usize, steps: usize) -> Option<String> {
    let mut rng = Rng::new(seed ^ 0x5151);
    let mut wall = vec![vec![true; w + 2]; h + 2];
    let mut free = Vec::new();
    for (r, row) in wall.iter_mut().enumerate().take(h + 1).skip(1) {
        for (c, cell) in row.iter_mut().enumerate().take(w + 1).skip(1) {
            if rng.below(100) >= wall_percent {
                *cell = false;
                free.push((r, c));
            }
        }
    }
    if free.len() < boxes + 2 {
        return None;
    }
    for i in (1..free.len()).rev() {
        free.swap(i, rng.below(i + 1));
    }
    let goals: Vec<(usize, usize)> = free[..boxes].to_vec();
    let mut box_at: Vec<(usize, usize)> = goals.clone();
    let (mut pr, mut pc) = free[boxes];
    let deltas = [(-1isize, 0isize), (0, 1), (1, 0), (0, -1)];
    for _ in 0..steps {
        let (dr, dc) = deltas[rng.below(4)];
        let (nr, nc) = ((pr as isize + dr) as usize, (pc as isize + dc) as usize);
        if wall[nr][nc] || box_at.contains(&(nr, nc)) {
            continue;
        }
        let behind = ((pr as isize - dr) as usize, (pc as isize - dc) as usize);
        if rng.below(2) == 0
            && let Some(b) = box_at.iter_mut().find(|b| **b == behind)
        {
            *b = (pr, pc);
        }
        (pr, pc) = (nr, nc);
    }
    let mut rows = Vec::new();
    for (r, wall_row) in wall.iter().enumerate() {
        let row: String = (0..w + 2)
            .map(|c| {
                let (g, b, p) = (goals.contains(&(r, c)), box_at.contains(&(r, c)), (r, c) == (pr, pc));
                match (wall_row[c], g, b, p) {
                    (true, ..) => '#',
                    (_, true, true, _) => '*',
                    (_, true, _, true) => '+',
                    (_, true, ..) => '.',
                    (_, _, true, _) => '$',
                    (_, _, _, true) => '@',
                    _ => ' ',
                }
            })
            .collect();
        rows.push(row);
    }
    Some(rows.join("\n") + "\n")
}

/// XSB text of an open `side`×`side` room with `boxes` boxes spread over its top half (every
/// other square of every other row, away from the walls) and as many goals over its bottom
/// half: a big level whose analysis (one search per goal) and root matching take long.
/// Panics when the room has fewer than `boxes` such squares.
pub fn big_room_text(side: usize, boxes: usize) -> String {
    let mut grid = vec![vec![b' '; side + 2]; side + 2];
    for row in &mut grid {
        row[0] = b'#';
        row[side + 1] = b'#';
    }
    grid[0].fill(b'#');
    grid[side + 1].fill(b'#');
    let spots: Vec<(usize, usize)> =
        (1..side / 2).step_by(2).flat_map(|r| (2..side).step_by(2).map(move |c| (r + 1, c))).collect();
    assert!(spots.len() >= boxes, "room too small");
    for &(r, c) in &spots[..boxes] {
        grid[r][c] = b'$';
        grid[r + side / 2][c] = b'.';
    }
    grid[side][1] = b'@';
    grid.iter().map(|row| String::from_utf8(row.clone()).unwrap() + "\n").collect()
}
