//! The state key: what identifies a search state, and how it is laid out in memory.
//!
//! A state is the set of boxes plus the player's square. Boxes are kept as bitsets over the
//! live squares (a box on a dead square is a deadlock, so it never needs a bit), one bitset per
//! box-weight class (boxes of equal weight are interchangeable; every mode but cost has one
//! class). A key is `classes × words` `u64`s, stored flat in the node store. The player square is
//! stored beside the key; in the pushes mode it is normalised to the lowest solver square of the
//! player's region, so positions that differ only by where the player walked are one state.
//!
//! Invariant: two states are the same exactly when their key words and player squares are
//! equal; a hash only picks the bucket, it never decides equality.

use crate::analysis::{Analysis, Sq};

/// A box in a decoded state: its solver square and weight class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxAt {
    /// Where the box stands.
    pub sq: Sq,
    /// Its weight class (index into the search's class weights).
    pub class: u16,
}

/// The shape of a key: words per class bitset, and the number of classes.
#[derive(Debug, Clone, Copy)]
pub struct KeyLayout {
    words: usize,
    classes: usize,
}

impl KeyLayout {
    /// The layout for a level's analysis with `classes` weight classes.
    pub fn new(a: &Analysis, classes: usize) -> KeyLayout {
        KeyLayout { words: a.live().div_ceil(64).max(1), classes: classes.max(1) }
    }

    /// `u64` words per key.
    #[inline]
    pub fn stride(&self) -> usize {
        self.words * self.classes
    }

    #[inline]
    fn bit(&self, b: BoxAt) -> (usize, u64) {
        let i = b.sq.index();
        (usize::from(b.class) * self.words + i / 64, 1 << (i % 64))
    }

    /// Sets the bits of `boxes` in `key` (which must be zeroed and `stride()` long). Boxes must
    /// be on live squares.
    pub fn encode(&self, boxes: &[BoxAt], key: &mut [u64]) {
        for &b in boxes {
            let (w, m) = self.bit(b);
            key[w] |= m;
        }
    }

    /// The boxes of `key` in ascending (class, square) order.
    pub fn decode(&self, key: &[u64], out: &mut Vec<BoxAt>) {
        out.clear();
        for (w, &word) in key.iter().enumerate() {
            let class = (w / self.words) as u16;
            let base = (w % self.words) * 64;
            let mut bits = word;
            while bits != 0 {
                out.push(BoxAt { sq: Sq::new(base + bits.trailing_zeros() as usize), class });
                bits &= bits - 1;
            }
        }
    }

    /// Moves box `b` to square `to` in `key`.
    #[inline]
    pub fn move_box(&self, key: &mut [u64], b: BoxAt, to: Sq) {
        let (w, m) = self.bit(b);
        key[w] &= !m;
        let (w, m) = self.bit(BoxAt { sq: to, class: b.class });
        key[w] |= m;
    }

    /// The box move that turns `parent` into `child` (keys that differ by one push): the square
    /// the box left and the square it reached.
    pub fn moved(&self, parent: &[u64], child: &[u64]) -> Option<(Sq, Sq)> {
        let (mut from, mut to) = (None, None);
        for (w, (&p, &c)) in parent.iter().zip(child).enumerate() {
            let square = |bits: u64| Sq::new((w % self.words) * 64 + bits.trailing_zeros() as usize);
            if p & !c != 0 {
                from = Some(square(p & !c));
            }
            if c & !p != 0 {
                to = Some(square(c & !p));
            }
        }
        from.zip(to)
    }
}

/// The hash of a state (key words and player square).
#[inline]
pub fn hash(key: &[u64], player: Sq) -> u64 {
    let mut h: u64 = (player.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &w in key {
        h = (h.rotate_left(26) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn keys_round_trip_and_record_the_move() {
        let level = parse_levels("########\n#@ $ $.#\n#  $  .#\n#     .#\n########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let layout = KeyLayout::new(&a, 2);
        let mut boxes: Vec<BoxAt> =
            level.boxes().iter().enumerate().map(|(i, &s)| BoxAt { sq: a.sq(s), class: (i % 2) as u16 }).collect();
        let mut key = vec![0; layout.stride()];
        layout.encode(&boxes, &mut key);
        let mut back = Vec::new();
        layout.decode(&key, &mut back);
        boxes.sort_by_key(|b| (b.class, b.sq));
        assert_eq!(back, boxes);
        let mut child = key.clone();
        let to = a.sq(level.square_at(2, 4).unwrap());
        layout.move_box(&mut child, boxes[0], to);
        assert_eq!(layout.moved(&key, &child), Some((boxes[0].sq, to)));
        assert_ne!(hash(&key, Sq::new(0)), hash(&child, Sq::new(0)));
    }
}
