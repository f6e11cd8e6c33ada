//! Room connectivity (after FESS): how many links between the level's rooms boxes cut.
//!
//! A *room* is open floor: the squares covered by 2×2 blocks of floor, blocks that overlap
//! along an edge being one room (a block with no such neighbour is too small to count, and a
//! square where blocks of two rooms meet corner to corner belongs to neither). The other
//! squares are *passages*: corridors and doorways. A *walk* from a free square of a room
//! goes over the free squares of that room and of passages, and sees each other room it
//! comes beside; two rooms are *linked* in a position when every part of each one's free
//! floor (boxes may split a room) sees the other. A link of the empty board that a position
//! lacks is *cut*: boxes block the passage, or fill the room, or wall off a part of it. The
//! count of cut links is a picture of how much the boxes stand in the player's way between
//! the areas of the level, which the player regions (see `features.rs`) miss: a box in a
//! corridor cuts the rooms on either side apart yet splits no region when a longer way round
//! remains.
//!
//! The rooms advisor asks, of each child, whether it cuts fewer links than its parent. The
//! parent's walks record which rooms entered each square; a move changes only the walks of
//! the rooms that entered the square its box reached or a square beside the one it left (and
//! of the rooms of those two squares), so a child walks those again and keeps the others',
//! and not at all when none of them has a link cut. Even so the walks, long in levels of
//! corridors, take about a third of an expansion's time; the advisor is off by default (see
//! `FastOptions::rooms`).
//!
//! Levels with fewer than two rooms or more than [`MAX_ROOMS`] have no links to cut.

use crate::analysis::region::{Labels, Step, next_round, spread};
use crate::analysis::{Analysis, Sq};
use crate::level::Dir;

/// More rooms than this: no room links are counted.
pub const MAX_ROOMS: usize = 64;

/// Not in a room.
const PASSAGE: u8 = u8::MAX;

/// The level's rooms and their links on the empty board, what the walks of the loaded
/// position saw, and scratch for counting a child's cut links.
#[derive(Default)]
pub struct Rooms {
    /// The room of each square, or [`PASSAGE`].
    room: Vec<u8>,
    /// The squares of each room.
    squares: Vec<Vec<Sq>>,
    /// `linked[r]`: the rooms linked to room `r` on the empty board (a bit each).
    linked: Vec<u64>,
    /// The loaded position's walks: the rooms each room saw from every part of its free
    /// floor, the rooms with free floor, and the rooms whose walks entered each square
    /// (valid where `entered_at` holds `loaded`).
    seen: Vec<u64>,
    walked: u64,
    /// The rooms with a link cut in the loaded position, and its count of cut links.
    cut_rooms: u64,
    loaded_cut: u16,
    entered: Vec<u64>,
    entered_at: Vec<u32>,
    loaded: u32,
    /// Scratch: a child's walks, the squares this walk entered, the room squares walked from.
    child_seen: Vec<u64>,
    links: Vec<u64>,
    mark: Vec<u32>,
    walk: u32,
    queue: Vec<Sq>,
}

impl Rooms {
    /// No rooms: nothing is ever cut (for a search without the rooms advisor).
    pub fn none() -> Rooms {
        Rooms::default()
    }

    /// The rooms of the level of `a` (none when it has fewer than two or too many).
    pub fn new(a: &Analysis) -> Rooms {
        let n = a.squares();
        let mut rooms = Rooms {
            room: vec![PASSAGE; n],
            entered: vec![0; n],
            entered_at: vec![0; n],
            mark: vec![0; n],
            ..Rooms::default()
        };
        let count = rooms.label(a);
        if !(2..=MAX_ROOMS).contains(&count) {
            rooms.room.fill(PASSAGE);
            return rooms;
        }
        rooms.squares = vec![Vec::new(); count];
        for s in a.all() {
            if let Some(list) = rooms.squares.get_mut(usize::from(rooms.room[s.index()])) {
                list.push(s);
            }
        }
        rooms.linked = vec![0; count];
        rooms.load(a, &vec![0u8; n]);
        rooms.linked.clone_from(&rooms.links);
        rooms
    }

    /// Loads the position with boxes where `occupied` is nonzero; returns its cut links.
    pub fn load(&mut self, a: &Analysis, occupied: &[u8]) -> u16 {
        if self.squares.is_empty() {
            return 0;
        }
        next_round(&mut self.loaded, || self.entered_at.fill(0));
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.resize(self.squares.len(), u64::MAX);
        self.walked = self.walk_rooms(a, occupied, u64::MAX, &mut seen, true);
        self.seen = seen;
        self.links_from(None);
        self.loaded_cut = self.cut();
        self.cut_rooms =
            self.linked.iter().zip(&self.links).enumerate().fold(0, |m, (r, (&base, &now))| match base & !now {
                0 => m,
                _ => m | 1 << r,
            });
        self.loaded_cut
    }

    /// The cut links of the loaded position's child in which a box went from `from` to `to`
    /// (`occupied` shows the child), or the loaded position's when the child cannot have
    /// fewer: only the rooms whose walks entered `to` or a square beside `from`, and the
    /// rooms of the two squares, walk again, and only when one of them has a link cut.
    pub fn cut_after(&mut self, a: &Analysis, occupied: &[u8], from: Sq, to: Sq) -> u16 {
        if self.squares.is_empty() {
            return 0;
        }
        let entered = |s: Sq| if self.entered_at[s.index()] == self.loaded { self.entered[s.index()] } else { 0 };
        let room_bit = |s: Sq| match self.room[s.index()] {
            PASSAGE => 0,
            r => 1u64 << r,
        };
        let mut again = entered(to) | room_bit(from) | room_bit(to);
        for n in Dir::ALL.into_iter().filter_map(|d| a.neighbor(from, d)) {
            again |= entered(n);
        }
        // Only a room that walks again can win back a link, and only one with a link cut.
        if again & self.cut_rooms == 0 {
            return self.loaded_cut;
        }
        let mut seen = std::mem::take(&mut self.child_seen);
        seen.clone_from(&self.seen);
        let mut r = again;
        while r != 0 {
            seen[r.trailing_zeros() as usize] = u64::MAX;
            r &= r - 1;
        }
        let walked = (self.walked & !again) | self.walk_rooms(a, occupied, again, &mut seen, false);
        self.child_seen = seen;
        self.links_from(Some(walked));
        self.cut()
    }

    /// Whether a box moved from or to `s` may change the links: `s` is a passage or a room
    /// square beside one (a move inside a room changes them only where it splits or joins
    /// the room's parts, which this leaves out).
    pub fn near_passage(&self, a: &Analysis, s: Sq) -> bool {
        let passage = |t: Sq| self.room.get(t.index()) == Some(&PASSAGE);
        passage(s) || Dir::ALL.into_iter().any(|d| a.neighbor(s, d).is_some_and(passage))
    }

    /// Links on the empty board that `links` lacks, each counted once.
    fn cut(&self) -> u16 {
        let cut: u32 = self.linked.iter().zip(&self.links).map(|(&base, &now)| (base & !now).count_ones()).sum();
        (cut / 2) as u16
    }

    /// Walks from every part of the free floor of the rooms in `rooms`, narrowing `seen[r]` to
    /// what each part of room `r` saw; `record` keeps which rooms entered each square (the
    /// loaded position's walks). Returns the rooms walked (those with free floor).
    fn walk_rooms(&mut self, a: &Analysis, occupied: &[u8], rooms: u64, seen: &mut [u64], record: bool) -> u64 {
        let mut walked = 0u64;
        let mut left = rooms & (u64::MAX >> (64 - self.squares.len()));
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            left &= left - 1;
            // Each walk marks the room squares it enters: one walk per part of the room.
            let first_walk = self.next_walk();
            for i in 0..self.squares[r].len() {
                let s = self.squares[r][i];
                if occupied[s.index()] != 0 || self.mark[s.index()] >= first_walk {
                    continue;
                }
                seen[r] &= self.walk_from(a, occupied, s, record);
                walked |= 1 << r;
            }
        }
        walked
    }

    /// A fresh walk number (marks of earlier walks are smaller).
    fn next_walk(&mut self) -> u32 {
        next_round(&mut self.walk, || self.mark.fill(0))
    }

    /// The rooms a walk from room square `start` sees through its own room's free floor and
    /// passages (a room is seen when the walk comes beside one of its squares).
    fn walk_from(&mut self, a: &Analysis, occupied: &[u8], start: Sq, record: bool) -> u64 {
        let own = self.room[start.index()];
        let walk = self.next_walk();
        let mut rooms = 0u64;
        let Rooms { room, mark, entered, entered_at, loaded, queue, .. } = self;
        queue.clear();
        queue.push(start);
        mark[start.index()] = walk;
        let record_entry = |s: Sq, _| {
            if record {
                if entered_at[s.index()] != *loaded {
                    entered_at[s.index()] = *loaded;
                    entered[s.index()] = 0;
                }
                entered[s.index()] |= 1 << own;
            }
            true
        };
        spread(a, queue, record_entry, |_, _, t| match room[t.index()] {
            r if r != PASSAGE && r != own => {
                rooms |= 1 << r;
                Step::Skip
            }
            _ if mark[t.index()] == walk || occupied[t.index()] != 0 => Step::Skip,
            _ => {
                mark[t.index()] = walk;
                Step::Enter
            }
        });
        rooms
    }

    /// The links into `links` from the loaded position's walks, or with `walked` from the
    /// child's (`child_seen`): a link holds when both rooms saw each other from every part.
    fn links_from(&mut self, walked: Option<u64>) {
        let (seen, walked) = match walked {
            Some(w) => (&self.child_seen, w),
            None => (&self.seen, self.walked),
        };
        self.links.clear();
        self.links.extend((0..seen.len()).map(|r| {
            let mut both = 0;
            if walked >> r & 1 == 1 {
                let mut saw = seen[r] & walked & !(1 << r);
                while saw != 0 {
                    let k = saw.trailing_zeros() as usize;
                    saw &= saw - 1;
                    if seen[k] >> r & 1 == 1 {
                        both |= 1 << k;
                    }
                }
            }
            both
        }));
    }

    /// Labels the rooms (see the module docs); returns how many there are.
    fn label(&mut self, a: &Analysis) -> usize {
        let n = a.squares();
        let corner = |s: Sq| -> Option<[Sq; 4]> {
            let right = a.neighbor(s, Dir::Right)?;
            let down = a.neighbor(s, Dir::Down)?;
            let diagonal = a.neighbor(right, Dir::Down)?;
            Some([s, right, down, diagonal])
        };
        let blocks: Vec<Option<[Sq; 4]>> = (0..n).map(|s| corner(Sq::new(s))).collect();
        // Rooms are the groups of blocks next to each other (a block's neighbours are the
        // blocks whose corners are its corner's neighbours); a block with none is no room.
        let is_block = |s: Sq| blocks[s.index()].is_some();
        let grouped = |s: Sq| is_block(s) && Dir::ALL.into_iter().any(|d| a.neighbor(s, d).is_some_and(is_block));
        let mut labels = Labels::new(n);
        let count = labels.fill(a, grouped);
        if count > MAX_ROOMS {
            return count;
        }
        let component: Vec<u8> = a.all().map(|s| labels.region_of(s).map_or(u8::MAX, |r| r as u8)).collect();
        // Each block paints its squares; a square two rooms paint is a passage.
        let mut painted = vec![u8::MAX; n];
        let mut shared = vec![false; n];
        for (s, block) in blocks.iter().enumerate() {
            let (Some(block), r) = (block, component[s]) else { continue };
            if r == u8::MAX {
                continue;
            }
            for q in block {
                let p = &mut painted[q.index()];
                if *p != u8::MAX && *p != r {
                    shared[q.index()] = true;
                }
                *p = r;
            }
        }
        for s in 0..n {
            self.room[s] = if shared[s] { PASSAGE } else { painted[s] };
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    const TWO_ROOMS: &str = "\
#########
#   #   #
# @     #
#   #   #
#########
";

    #[test]
    fn a_box_in_the_doorway_cuts_the_one_link() {
        let level = parse_levels(TWO_ROOMS).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut rooms = Rooms::new(&a);
        assert!(!rooms.linked.is_empty());
        let mut occupied = vec![0u8; a.squares()];
        let inside = a.sq(level.square_at(2, 1).unwrap());
        let door = a.sq(level.square_at(2, 4).unwrap());
        assert!(rooms.near_passage(&a, door) && !rooms.near_passage(&a, inside));
        occupied[door.index()] = 1;
        assert_eq!(rooms.load(&a, &occupied), 1);
        // The box leaves the doorway for the left room: the link is back.
        occupied[door.index()] = 0;
        occupied[inside.index()] = 1;
        assert_eq!(rooms.cut_after(&a, &occupied, door, inside), 0);
        assert_eq!(rooms.load(&a, &occupied), 0);
        // From a position without a cut link no child can have fewer: its count is not
        // worked out (the doorway would cut one).
        occupied[inside.index()] = 0;
        occupied[door.index()] = 1;
        assert_eq!(rooms.cut_after(&a, &occupied, inside, door), 0);
    }

    #[test]
    fn a_child_reckoned_from_its_parent_agrees_wherever_it_cuts_fewer() {
        let text = "###########\n#    #    #\n#    #    #\n#  @      #\n#    #    #\n#### # ####\n#    #    #\n#         #\n#    #    #\n###########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut rooms = Rooms::new(&a);
        let mut fresh = Rooms::new(&a);
        assert!(rooms.linked.len() >= 4);
        let n = a.squares();
        let mut seed = 0x2545_f491_u64;
        let mut next = |m: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % m
        };
        let mut fewer = 0;
        for _ in 0..300 {
            let mut occupied = vec![0u8; n];
            for _ in 0..10 {
                occupied[next(n)] = 1;
            }
            let parent = rooms.load(&a, &occupied);
            for _ in 0..20 {
                let (from, to) = (Sq::new(next(n)), Sq::new(next(n)));
                if occupied[from.index()] == 0 || occupied[to.index()] != 0 {
                    continue;
                }
                occupied[from.index()] = 0;
                occupied[to.index()] = 1;
                let reckoned = rooms.cut_after(&a, &occupied, from, to);
                let exact = fresh.load(&a, &occupied);
                if reckoned < parent || exact < parent {
                    assert_eq!(reckoned, exact);
                    fewer += 1;
                }
                occupied[to.index()] = 0;
                occupied[from.index()] = 1;
            }
        }
        assert!(fewer > 0, "some moves win links back");
    }

    #[test]
    fn one_room_has_nothing_to_cut() {
        let level = parse_levels("#####\n#   #\n# @ #\n#####\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let rooms = Rooms::new(&a);
        assert!(rooms.linked.is_empty());
    }
}
