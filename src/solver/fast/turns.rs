//! Lanes that share one thread's worth of the machine take turns.
//!
//! On one thread the portfolio (`portfolio.rs`) still runs its first two lanes, each on a
//! thread of its own, but only one of them runs at a time: the lane whose turn it is searches
//! for its share of a short round, then hands the turn on and waits for it to come back. A
//! lane's share is its weight in the round, so the first lane (one thread's schedule) keeps
//! most of the processor while the second gets the seconds its passes need early, instead of
//! after the first lane's schedule has spent the limit.
//!
//! The turn changes hands only at an expansion (`Turn::tick`, from the search's loop), where
//! a lane holds nothing the others wait for, and a lane that ends hands it on for good
//! (`Seat`'s drop, so a lane that panics cannot leave the others waiting). The round is
//! measured on the clock, not in expansions: the lanes' expansions differ in cost, and the
//! turns are only taken under a time limit, where the clock decides anyway.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A round of turns: each lane runs for its weight's share of it.
const ROUND: Duration = Duration::from_millis(40);

/// How many expansions pass between two readings of the clock.
const CLOCK_EVERY: u32 = 16;

/// The turn shared by the lanes of one solve.
pub struct Turns {
    state: Mutex<Table>,
    changed: Condvar,
    /// Before this, the first lane keeps the turn.
    opens: Instant,
}

/// Whose turn it is, and which lanes have ended.
struct Table {
    current: usize,
    ended: Vec<bool>,
}

impl Table {
    /// The lane after `me` that has not ended (`me` itself when it is the last).
    fn next(&self, me: usize) -> usize {
        let n = self.ended.len();
        (1..=n).map(|k| (me + k) % n).find(|&i| !self.ended[i]).unwrap_or(me)
    }
}

impl Turns {
    /// The turn of `lanes` lanes, the first lane's alone until `opens`.
    pub fn new(lanes: usize, opens: Instant) -> Arc<Turns> {
        let table = Table { current: 0, ended: vec![false; lanes] };
        Arc::new(Turns { state: Mutex::new(table), changed: Condvar::new(), opens })
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits until it is `me`'s turn.
    fn wait<'t>(&'t self, mut table: MutexGuard<'t, Table>, me: usize) {
        while table.current != me {
            table = self.changed.wait(table).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Lane `me`'s seat: waits for its first turn; the lane runs while it holds the seat and
    /// hands the turn on for good when the seat is dropped.
    pub fn seat(self: &Arc<Turns>, me: usize) -> Seat {
        self.wait(self.table(), me);
        Seat { turns: self.clone(), me }
    }

    /// Lane `me` takes no more turns (it ended, or never started): the others go on without it.
    pub fn leave(&self, me: usize) {
        let mut table = self.table();
        table.ended[me] = true;
        if table.current == me {
            table.current = table.next(me);
        }
        self.changed.notify_all();
    }

    /// `me` hands the turn on to the next lane still running, and waits for it to come back.
    fn hand_on(&self, me: usize) {
        let mut table = self.table();
        table.current = table.next(me);
        self.changed.notify_all();
        self.wait(table, me);
    }
}

/// A lane's place in the turns; dropping it ends the lane's turns.
pub struct Seat {
    turns: Arc<Turns>,
    me: usize,
}

impl Seat {
    /// The lane's turn, `share` of each round.
    pub fn turn(&self, share: Duration) -> Turn {
        Turn { turns: self.turns.clone(), me: self.me, share, began: Instant::now(), countdown: CLOCK_EVERY }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.turns.leave(self.me);
    }
}

/// A lane's turn as its searches see it: [`Turn::tick`] once per expansion. A search that
/// the lane runs inside another (the midpoint's solve of its imagined level) ticks a clone.
#[derive(Clone)]
pub struct Turn {
    turns: Arc<Turns>,
    me: usize,
    share: Duration,
    began: Instant,
    countdown: u32,
}

impl Turn {
    /// The weights' shares of a round, lane by lane.
    pub fn shares(weights: &[u32]) -> Vec<Duration> {
        let whole: u32 = weights.iter().sum::<u32>().max(1);
        weights.iter().map(|&w| ROUND * w / whole).collect()
    }

    /// Counts an expansion: once the lane's share of the round is spent, the turn goes to the
    /// next lane and this returns when it comes back.
    #[inline]
    pub fn tick(&mut self) {
        self.countdown -= 1;
        if self.countdown > 0 {
            return;
        }
        self.countdown = CLOCK_EVERY;
        let now = Instant::now();
        if now.duration_since(self.began) >= self.share && now >= self.turns.opens {
            self.turns.hand_on(self.me);
            self.began = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn only_the_lane_whose_turn_it_is_runs_and_an_ended_lane_hands_it_on() {
        let turns = Turns::new(3, Instant::now());
        let running = AtomicUsize::new(0);
        let ran = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];
        std::thread::scope(|scope| {
            for (me, ran) in ran.iter().enumerate() {
                let (turns, running) = (turns.clone(), &running);
                scope.spawn(move || {
                    let seat = turns.seat(me);
                    // A share of nothing: the turn changes hands at every clock reading.
                    let mut turn = seat.turn(Duration::ZERO);
                    // Lane 2 ends early; the others keep taking turns without it.
                    let ticks = if me == 2 { 100 } else { 3_000 };
                    for _ in 0..ticks {
                        assert_eq!(running.fetch_add(1, Ordering::SeqCst), 0, "two lanes at once");
                        ran.fetch_add(1, Ordering::Relaxed);
                        running.fetch_sub(1, Ordering::SeqCst);
                        turn.tick();
                    }
                });
            }
        });
        assert_eq!(ran.iter().map(|r| r.load(Ordering::Relaxed)).collect::<Vec<_>>(), [3_000, 3_000, 100]);
    }

    #[test]
    fn the_shares_split_a_round_by_weight() {
        assert_eq!(Turn::shares(&[3, 1]), [ROUND * 3 / 4, ROUND / 4]);
    }
}
