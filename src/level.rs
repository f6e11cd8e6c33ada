//! The immutable, validated [`Level`]: board geometry, goals, the start position and metadata.
//!
//! Every parser builds a [`RawBoard`] (a rectangle of cells with their source positions) and hands
//! it to [`Level::from_raw`], which does all validation in one place: exactly one player, a board
//! closed by walls (or, for formats whose edge counts as wall, an implicit wall), no box or goal
//! outside the walls, and the box/goal count the chosen [`SolvedRule`] needs.
//!
//! Squares are the non-wall cells inside the walls: all but the exterior, which is whatever is
//! connected to the edge of the map. Sealed pockets the player never enters (a box parked on a
//! goal behind walls) are squares too. They are numbered once,
//! in reading order, as [`Square`] (a `u32` newtype), with a precomputed neighbour table, so the
//! rules and the solver never do coordinate arithmetic in their inner loops.

use crate::error::{ParseError, ParseErrorKind};

/// Largest accepted board width or height.
pub const MAX_SIDE: usize = 1024;
/// Largest accepted number of squares (so solver tables can use `u16` indices).
pub const MAX_SQUARES: usize = u16::MAX as usize - 1;

/// A floor square of a level, numbered compactly in reading order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u32);

impl Square {
    /// Wraps an index. The caller must take it from the same level: the level's functions panic
    /// on an index beyond its squares (see their `# Panics` sections).
    pub fn new(index: usize) -> Square {
        Square(index as u32)
    }
    /// The 0-based index of the square within its level.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction of a move, in the fixed order used everywhere: up, right, down, left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards higher columns.
    Right,
    /// Towards higher rows.
    Down,
    /// Towards column 0.
    Left,
}

impl Dir {
    /// All four directions in the canonical order (up, right, down, left).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// The position in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
    /// The reverse direction.
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self.index() + 2) % 4]
    }
    /// Row and column offsets.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
        }
    }
    /// The lowercase LURD letter.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'u',
            Dir::Right => 'r',
            Dir::Down => 'd',
            Dir::Left => 'l',
        }
    }
    /// The lowercase English word (`up`, `right`, `down`, `left`).
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Right => "right",
            Dir::Down => "down",
            Dir::Left => "left",
        }
    }
}

/// When a level counts as solved. Real collections use all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SolvedRule {
    /// Every box on a goal, and the level has as many boxes as goals (XSB levels).
    #[default]
    Standard,
    /// Every box on a goal; goals may outnumber boxes (integer-grid course levels).
    AllBoxesOnGoals,
    /// Every goal holds a box; a level without goals is never solved (JSON course levels).
    AllGoalsCovered,
}

impl SolvedRule {
    /// Whether a position with `boxes` boxes of which `boxes_on_goals` sit on goals, in a level
    /// with `goals` goals, is solved.
    pub fn is_solved(self, boxes: usize, goals: usize, boxes_on_goals: usize) -> bool {
        match self {
            SolvedRule::Standard => boxes == goals && boxes_on_goals == boxes,
            SolvedRule::AllBoxesOnGoals => boxes_on_goals == boxes,
            SolvedRule::AllGoalsCovered => goals > 0 && boxes_on_goals == goals,
        }
    }
}

/// How the edge of the grid is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Edges {
    /// Walls must enclose the player (XSB); reaching the edge is an [`ParseErrorKind::OpenBoard`].
    #[default]
    MustBeClosed,
    /// Everything beyond the grid counts as wall (integer grids).
    Walled,
}

/// The file format a level came from, so tools can write results back in kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceFormat {
    /// XSB/SOK text.
    #[default]
    Xsb,
    /// Integer grids (and Lisp files of them).
    Grid,
    /// JSON grids of object lists.
    Json,
    /// XSB with a first line of box weights.
    Warehouse,
}

impl SourceFormat {
    /// Every format: XSB, grid, JSON, warehouse.
    pub const ALL: [SourceFormat; 4] =
        [SourceFormat::Xsb, SourceFormat::Grid, SourceFormat::Json, SourceFormat::Warehouse];

    /// The lowercase name used on the command line: `xsb`, `grid`, `json` or `warehouse`.
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Xsb => "xsb",
            SourceFormat::Grid => "grid",
            SourceFormat::Json => "json",
            SourceFormat::Warehouse => "warehouse",
        }
    }

    /// The format with this name (case-insensitive); `sok` is accepted for XSB and `lisp` for grid.
    pub fn from_name(name: &str) -> Option<SourceFormat> {
        let lower = name.trim().to_ascii_lowercase();
        match lower.as_str() {
            "sok" => Some(SourceFormat::Xsb),
            "lisp" => Some(SourceFormat::Grid),
            _ => SourceFormat::ALL.into_iter().find(|f| f.name() == lower),
        }
    }
}

/// One cell of a [`RawBoard`] as written in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawCell {
    /// A wall.
    pub wall: bool,
    /// A goal.
    pub goal: bool,
    /// A box.
    pub box_: bool,
    /// The player.
    pub player: bool,
}

/// A parsed but unvalidated board: rows of cells and, for error messages, where each came from.
#[derive(Debug, Clone, Default)]
pub struct RawBoard {
    /// The cells, row by row (rows may differ in length).
    pub rows: Vec<Vec<RawCell>>,
    /// 1-based (line, column) of each cell in `rows`, same shape, except that an empty row may
    /// hold one position (where it is written). Only used for error messages.
    pub positions: Vec<Vec<(usize, usize)>>,
}

impl RawBoard {
    /// Position of the first cell, or (1, 1) for an empty board.
    fn origin(&self) -> (usize, usize) {
        self.positions.iter().flatten().next().copied().unwrap_or((1, 1))
    }
}

/// What a cell of the level's rectangle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tile {
    /// A wall.
    Wall,
    /// A square: a non-wall cell inside the walls.
    Floor,
    /// Empty space outside the walls.
    Outside,
}

/// Metadata carried with a level.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    /// The level's title, if the file gave one.
    pub title: Option<String>,
    /// Comment lines that belong to the level.
    pub comments: Vec<String>,
    /// Box weights in reading order of the boxes; empty means all zero.
    pub weights: Vec<u32>,
}

/// Options for [`Level::from_raw`].
#[derive(Debug, Clone, Copy, Default)]
pub struct BuildOptions {
    /// When the level counts as solved.
    pub rule: SolvedRule,
    /// How the board's edges are closed.
    pub edges: Edges,
    /// The format the level came from.
    pub format: SourceFormat,
}

const NONE: u32 = u32::MAX;

/// [`Level::from_raw`]'s view of a raw board: its rectangle (the longest row's width), its cells
/// (a short row's missing cells are outside) and where each came from, for error messages.
struct RawView<'r> {
    raw: &'r RawBoard,
    height: usize,
    width: usize,
    /// The first cell's (line, column), where errors about the whole board point.
    origin: (usize, usize),
}

/// The rows `top..bottom` and columns `left..right` of a raw board that hold every wall and
/// square: outside them there is only the exterior.
struct Trimmed {
    top: usize,
    bottom: usize,
    left: usize,
    right: usize,
}

impl Trimmed {
    fn width(&self) -> usize {
        self.right - self.left
    }
    fn height(&self) -> usize {
        self.bottom - self.top
    }
}

/// The trimmed rectangle's cells, its squares numbered in reading order, and the cells of its
/// goals and boxes (row-major indices into the trimmed rectangle).
struct Numbered {
    tiles: Vec<Tile>,
    cell_square: Vec<u32>,
    square_cell: Vec<u32>,
    goal_cells: Vec<usize>,
    box_cells: Vec<usize>,
}

impl<'r> RawView<'r> {
    /// The view of `raw`, unless it is empty or too large.
    fn new(raw: &'r RawBoard) -> Result<RawView<'r>, ParseError> {
        let height = raw.rows.len();
        let width = raw.rows.iter().map(Vec::len).max().unwrap_or(0);
        let view = RawView { raw, height, width, origin: raw.origin() };
        if height == 0 || width == 0 {
            return Err(view.error(ParseErrorKind::Empty));
        }
        for (what, actual) in [("the width", width), ("the height", height)] {
            if actual > MAX_SIDE {
                return Err(view.error(ParseErrorKind::TooLarge { what, actual, limit: MAX_SIDE }));
            }
        }
        Ok(view)
    }

    /// The error `kind` at the board's first cell.
    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError::new(kind, self.origin.0, self.origin.1)
    }

    /// The error `kind` at cell (`r`, `c`).
    fn error_at(&self, kind: ParseErrorKind, r: usize, c: usize) -> ParseError {
        let (line, column) = self.position(r, c);
        ParseError::new(kind, line, column)
    }

    /// The (line, column) of cell (`r`, `c`). Past the end of a short row (or of the position
    /// list): one column beyond the last character of this row, or of the nearest row above
    /// that has one.
    fn position(&self, r: usize, c: usize) -> (usize, usize) {
        let positions = &self.raw.positions;
        if let Some(&p) = positions.get(r).and_then(|row| row.get(c)) {
            return p;
        }
        match (0..=r.min(positions.len().saturating_sub(1)))
            .rev()
            .find_map(|k| positions.get(k).and_then(|row| row.last().map(|&p| (k, row.len(), p))))
        {
            Some((k, len, (line, col))) if k == r => (line, col + 1 + c.saturating_sub(len)),
            Some((_, _, (line, col))) => (line, col + 1),
            None => (self.origin.0 + r, c + 1),
        }
    }

    fn cell(&self, r: usize, c: usize) -> RawCell {
        self.raw.rows[r].get(c).copied().unwrap_or_default()
    }

    /// The player's cell: exactly one player, not in a wall and not on a box (no format can
    /// write both on one cell).
    fn player(&self) -> Result<(usize, usize), ParseError> {
        let mut player = None;
        for (r, row) in self.raw.rows.iter().enumerate() {
            for c in (0..row.len()).filter(|&c| row[c].player) {
                if let Some((pr, pc)) = player {
                    let (first_line, first_column) = self.position(pr, pc);
                    return Err(self.error_at(ParseErrorKind::TwoPlayers { first_line, first_column }, r, c));
                }
                player = Some((r, c));
            }
        }
        let Some((pr, pc)) = player else { return Err(self.error(ParseErrorKind::NoPlayer)) };
        if self.cell(pr, pc).wall {
            return Err(self.error_at(ParseErrorKind::Syntax("the player stands in a wall".into()), pr, pc));
        }
        if self.cell(pr, pc).box_ {
            return Err(self.error_at(ParseErrorKind::PlayerOnBox, pr, pc));
        }
        Ok((pr, pc))
    }

    /// Marks in `seen` the non-wall cells connected to `starts` (emptied); the first cell
    /// found beside the edge of the map, if any.
    fn flood(&self, starts: &mut Vec<(usize, usize)>, seen: &mut [bool]) -> Option<(usize, usize)> {
        let (height, width) = (self.height, self.width);
        let mut escape = None;
        for &(r, c) in starts.iter() {
            seen[r * width + c] = true;
        }
        while let Some((r, c)) = starts.pop() {
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                if nr < 0 || nc < 0 || nr >= height as isize || nc >= width as isize {
                    escape.get_or_insert((r, c));
                    continue;
                }
                let (nr, nc) = (nr as usize, nc as usize);
                if !self.cell(nr, nc).wall && !seen[nr * width + nc] {
                    seen[nr * width + nc] = true;
                    starts.push((nr, nc));
                }
            }
        }
        escape
    }

    /// The exterior, one flag per cell: the non-wall cells connected to the edge of the map
    /// (none when `edges` walls the map in). Everything else that is not a wall is a square,
    /// sealed pockets (often boxes parked on goals) included. Errors when the player can walk
    /// off a map that must be closed, or a box or goal lies outside.
    fn exterior(&self, (pr, pc): (usize, usize), edges: Edges) -> Result<Vec<bool>, ParseError> {
        let (height, width) = (self.height, self.width);
        let mut reached = vec![false; width * height];
        if let (Some((r, c)), Edges::MustBeClosed) = (self.flood(&mut vec![(pr, pc)], &mut reached), edges) {
            return Err(self.error_at(ParseErrorKind::OpenBoard, r, c));
        }
        let mut exterior = vec![false; width * height];
        if edges == Edges::MustBeClosed {
            let edge = |r: usize, c: usize| r == 0 || c == 0 || r + 1 == height || c + 1 == width;
            let mut border: Vec<_> = (0..height)
                .flat_map(|r| (0..width).map(move |c| (r, c)))
                .filter(|&(r, c)| edge(r, c) && !self.cell(r, c).wall)
                .collect();
            self.flood(&mut border, &mut exterior);
        }
        for r in 0..height {
            for c in 0..width {
                let rc = self.cell(r, c);
                if exterior[r * width + c] && (rc.box_ || rc.goal) {
                    let what = if rc.box_ { "box" } else { "goal" };
                    return Err(self.error_at(ParseErrorKind::OutsideWalls(what), r, c));
                }
            }
        }
        Ok(exterior)
    }

    /// The rectangle that holds every wall and square (see [`Trimmed`]); an error when a row
    /// inside it holds neither.
    fn trimmed(&self, exterior: &[bool]) -> Result<Trimmed, ParseError> {
        let (height, width) = (self.height, self.width);
        let solid = |r: usize, c: usize| !exterior[r * width + c];
        let solid_row = |r: usize| (0..width).any(|c| solid(r, c));
        let solid_col = |c: usize| (0..height).any(|r| solid(r, c));
        // The player's square is solid, so these exist.
        let top = (0..height).find(|&r| solid_row(r)).unwrap_or(0);
        let bottom = (0..height).rfind(|&r| solid_row(r)).unwrap_or(height - 1) + 1;
        let left = (0..width).find(|&c| solid_col(c)).unwrap_or(0);
        let right = (0..width).rfind(|&c| solid_col(c)).unwrap_or(width - 1) + 1;
        if let Some(r) = (top..bottom).find(|&r| !solid_row(r)) {
            return Err(self.error_at(ParseErrorKind::BlankRow, r, 0));
        }
        Ok(Trimmed { top, bottom, left, right })
    }

    /// The cells of the `trimmed` rectangle, its squares numbered in reading order.
    fn numbered(&self, exterior: &[bool], trimmed: &Trimmed) -> Numbered {
        let (width, height) = (trimmed.width(), trimmed.height());
        let mut numbered = Numbered {
            tiles: vec![Tile::Outside; width * height],
            cell_square: vec![NONE; width * height],
            square_cell: Vec::new(),
            goal_cells: Vec::new(),
            box_cells: Vec::new(),
        };
        for r in 0..height {
            for c in 0..width {
                let i = r * width + c;
                let (raw_r, raw_c) = (r + trimmed.top, c + trimmed.left);
                let rc = self.cell(raw_r, raw_c);
                if rc.wall {
                    numbered.tiles[i] = Tile::Wall;
                    continue;
                }
                if exterior[raw_r * self.width + raw_c] {
                    continue;
                }
                numbered.tiles[i] = Tile::Floor;
                numbered.cell_square[i] = numbered.square_cell.len() as u32;
                numbered.square_cell.push(i as u32);
                if rc.goal {
                    numbered.goal_cells.push(i);
                }
                if rc.box_ {
                    numbered.box_cells.push(i);
                }
            }
        }
        numbered
    }
}

/// Each square's neighbour square per direction (`NONE` where a wall or the map's edge is).
fn neighbor_table(square_cell: &[u32], cell_square: &[u32], width: usize, height: usize) -> Vec<[u32; 4]> {
    square_cell
        .iter()
        .map(|&ci| {
            let (r, c) = (ci as usize / width, ci as usize % width);
            Dir::ALL.map(|d| {
                let (dr, dc) = d.delta();
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                if nr < 0 || nc < 0 || nr >= height as isize || nc >= width as isize {
                    NONE
                } else {
                    cell_square[nr as usize * width + nc as usize]
                }
            })
        })
        .collect()
}

/// A validated, immutable level.
#[derive(Debug, Clone)]
pub struct Level {
    meta: Meta,
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// Cell index (row-major) to square, `NONE` for walls and the outside.
    cell_square: Vec<u32>,
    /// Square to cell index.
    square_cell: Vec<u32>,
    /// Square to neighbour square per direction, `NONE` when blocked by a wall.
    neighbors: Vec<[u32; 4]>,
    is_goal: Vec<bool>,
    goals: Vec<Square>,
    boxes: Vec<Square>,
    weights: Vec<u32>,
    player: Square,
    rule: SolvedRule,
    edges: Edges,
    format: SourceFormat,
}

impl PartialEq for Level {
    /// Two levels are equal when board, start position, rule and title agree.
    fn eq(&self, other: &Level) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.tiles == other.tiles
            && self.is_goal == other.is_goal
            && self.boxes == other.boxes
            && self.player == other.player
            && self.weights == other.weights
            && self.rule == other.rule
            && self.meta.title == other.meta.title
    }
}

impl Level {
    /// Validates a raw board and numbers its squares.
    ///
    /// Rows and columns at the edges of the map that hold only the outside (no wall, no square)
    /// are dropped, so a level does not depend on how a file padded its board (trailing `-`
    /// cells, an empty run-length row at the end) and every writer can reproduce it exactly. A
    /// row with no wall and no square between others is an error: it is all outside, and no
    /// text format could write it without splitting the board in two. `raw.positions` may be
    /// shorter than `raw.rows` (or empty): errors then get approximate positions.
    pub fn from_raw(raw: RawBoard, mut meta: Meta, opts: BuildOptions) -> Result<Level, ParseError> {
        let view = RawView::new(&raw)?;
        let player = view.player()?;
        let exterior = view.exterior(player, opts.edges)?;
        let trimmed = view.trimmed(&exterior)?;
        let Numbered { tiles, cell_square, square_cell, goal_cells, box_cells } = view.numbered(&exterior, &trimmed);
        if square_cell.len() > MAX_SQUARES {
            let kind = ParseErrorKind::TooLarge {
                what: "the number of floor squares",
                actual: square_cell.len(),
                limit: MAX_SQUARES,
            };
            return Err(view.error(kind));
        }
        if opts.rule == SolvedRule::Standard && box_cells.len() != goal_cells.len() {
            let kind = ParseErrorKind::BoxGoalMismatch { boxes: box_cells.len(), goals: goal_cells.len() };
            return Err(view.error(kind));
        }
        let weights = if meta.weights.is_empty() {
            vec![0; box_cells.len()]
        } else if meta.weights.len() == box_cells.len() {
            std::mem::take(&mut meta.weights)
        } else {
            let msg = format!("{} weights given for {} boxes", meta.weights.len(), box_cells.len());
            return Err(view.error(ParseErrorKind::Syntax(msg)));
        };
        let (width, height) = (trimmed.width(), trimmed.height());
        let neighbors = neighbor_table(&square_cell, &cell_square, width, height);
        let sq = |i: usize| Square(cell_square[i]);
        let goals = goal_cells.iter().map(|&i| sq(i)).collect();
        let boxes = box_cells.iter().map(|&i| sq(i)).collect();
        let player = sq((player.0 - trimmed.top) * width + player.1 - trimmed.left);
        let mut is_goal = vec![false; square_cell.len()];
        for &g in &goal_cells {
            is_goal[cell_square[g] as usize] = true;
        }
        Ok(Level {
            meta,
            width,
            height,
            tiles,
            cell_square,
            square_cell,
            neighbors,
            is_goal,
            goals,
            boxes,
            weights,
            player,
            rule: opts.rule,
            edges: opts.edges,
            format: opts.format,
        })
    }

    /// The title, if any.
    pub fn title(&self) -> Option<&str> {
        self.meta.title.as_deref()
    }
    /// Comment lines kept with the level.
    pub fn comments(&self) -> &[String] {
        &self.meta.comments
    }
    /// Replaces the title.
    pub fn set_title(&mut self, title: Option<String>) {
        self.meta.title = title;
    }
    /// Columns of the level's rectangle.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Rows of the level's rectangle.
    pub fn height(&self) -> usize {
        self.height
    }
    /// Number of squares (floor cells inside the walls).
    pub fn square_count(&self) -> usize {
        self.square_cell.len()
    }
    /// Every square, in index order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.square_cell.len()).map(Square::new)
    }
    /// What the cell at `row`, `col` is.
    ///
    /// # Panics
    ///
    /// If the cell lies outside the level's rectangle (`row >= height` or `col >= width`);
    /// [`Level::square_at`] answers `None` there instead.
    pub fn tile(&self, row: usize, col: usize) -> Tile {
        self.tiles[row * self.width + col]
    }
    /// The square at a cell, if the cell is floor inside the walls.
    pub fn square_at(&self, row: usize, col: usize) -> Option<Square> {
        if row >= self.height || col >= self.width {
            return None;
        }
        let s = self.cell_square[row * self.width + col];
        (s != NONE).then_some(Square(s))
    }
    /// Row and column of a square.
    ///
    /// # Panics
    ///
    /// If `s` is not a square of this level (an index of at least [`Level::square_count`]).
    pub fn coords(&self, s: Square) -> (usize, usize) {
        let c = self.square_cell[s.index()] as usize;
        (c / self.width, c % self.width)
    }
    /// The neighbouring square in a direction, or `None` if a wall (or the edge) is there.
    ///
    /// # Panics
    ///
    /// If `s` is not a square of this level (an index of at least [`Level::square_count`]).
    #[inline]
    pub fn neighbor(&self, s: Square, d: Dir) -> Option<Square> {
        let n = self.neighbors[s.index()][d.index()];
        (n != NONE).then_some(Square(n))
    }
    /// Whether a square is a goal.
    ///
    /// # Panics
    ///
    /// If `s` is not a square of this level (an index of at least [`Level::square_count`]).
    #[inline]
    pub fn is_goal(&self, s: Square) -> bool {
        self.is_goal[s.index()]
    }
    /// The goals in reading order.
    pub fn goals(&self) -> &[Square] {
        &self.goals
    }
    /// Boxes of the start position, in reading order.
    pub fn boxes(&self) -> &[Square] {
        &self.boxes
    }
    /// Box weights, in the reading order of [`Level::boxes`]; all zero unless the file gave some.
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }
    /// Replaces the box weights (same length as [`Level::boxes`]).
    pub fn set_weights(&mut self, weights: Vec<u32>) -> Result<(), String> {
        if weights.len() != self.boxes.len() {
            return Err(format!("{} weights given for {} boxes", weights.len(), self.boxes.len()));
        }
        self.weights = weights;
        Ok(())
    }
    /// The player's start square.
    pub fn player(&self) -> Square {
        self.player
    }
    /// When the level counts as solved.
    pub fn rule(&self) -> SolvedRule {
        self.rule
    }
    /// Changes the solved rule.
    pub fn set_rule(&mut self, rule: SolvedRule) {
        self.rule = rule;
    }
    /// How the board's edges are closed.
    pub fn edges(&self) -> Edges {
        self.edges
    }
    /// The format the level came from.
    pub fn format(&self) -> SourceFormat {
        self.format
    }
    /// Title, comments and weights.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The start position as a raw board (for writers and converters).
    pub fn to_raw(&self) -> RawBoard {
        let mut has_box = vec![false; self.square_count()];
        for b in &self.boxes {
            has_box[b.index()] = true;
        }
        self.raw_with(|s| has_box[s.index()], self.player)
    }

    /// The board with boxes where `has_box` says and the player on `player`: how positions are
    /// drawn (`rules::Position::to_raw` calls it, so this module needs nothing from `rules`).
    /// A `player` square that is not one of this level's squares draws no player.
    pub fn raw_with(&self, has_box: impl Fn(Square) -> bool, player: Square) -> RawBoard {
        let mut rows = Vec::with_capacity(self.height);
        for r in 0..self.height {
            let row = (0..self.width)
                .map(|c| {
                    let square = self.square_at(r, c);
                    RawCell {
                        wall: self.tile(r, c) == Tile::Wall,
                        goal: square.is_some_and(|s| self.is_goal(s)),
                        box_: square.is_some_and(&has_box),
                        player: square == Some(player),
                    }
                })
                .collect();
            rows.push(row);
        }
        RawBoard { rows, positions: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_rules_differ_on_goal_counts() {
        assert!(SolvedRule::Standard.is_solved(2, 2, 2));
        assert!(!SolvedRule::Standard.is_solved(1, 2, 1));
        assert!(SolvedRule::AllBoxesOnGoals.is_solved(1, 2, 1));
        assert!(!SolvedRule::AllGoalsCovered.is_solved(1, 2, 1));
        assert!(SolvedRule::AllGoalsCovered.is_solved(3, 2, 2));
        assert!(!SolvedRule::AllGoalsCovered.is_solved(0, 0, 0));
    }

    #[test]
    fn directions_are_ordered_and_opposite() {
        assert_eq!(Dir::ALL.map(Dir::letter), ['u', 'r', 'd', 'l']);
        for d in Dir::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
        }
    }
}
