//! Batch runs across cores: solve several levels at once and report them in level order.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The worker count for `--jobs N`: `0` means one per available core.
pub fn worker_count(jobs: usize) -> usize {
    if jobs > 0 { jobs } else { std::thread::available_parallelism().map_or(1, |n| n.get()) }
}

/// Runs `work(i)` for every `i` in `0..count` on `jobs` threads (a thread takes the next index
/// when it finishes one, so long and short jobs mix). `done(i, result)` is called on the calling
/// thread, in index order, as soon as job `i` and every job before it have finished. A job that
/// panics re-raises the panic here once the other workers have stopped.
pub fn in_order<T: Send>(count: usize, jobs: usize, work: impl Fn(usize) -> T + Sync, mut done: impl FnMut(usize, T)) {
    let jobs = jobs.clamp(1, count.max(1));
    if jobs == 1 {
        for i in 0..count {
            done(i, work(i));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, T)>();
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let send = send.clone();
            let (next, work, failed) = (&next, &work, &failed);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(i))) {
                        Ok(result) => {
                            if send.send((i, result)).is_err() {
                                break;
                            }
                        }
                        Err(panic) => {
                            // Stop handing out work; the panic is raised on the caller's thread.
                            next.store(count, Ordering::Relaxed);
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(panic);
                            break;
                        }
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        for (i, result) in receive {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&expected) {
                done(expected, result);
                expected += 1;
            }
        }
    });
    if let Some(panic) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        std::panic::resume_unwind(panic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_index_order_whatever_the_finishing_order() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            in_order(
                20,
                jobs,
                |i| {
                    // Early jobs take longest, so they finish last.
                    std::thread::sleep(std::time::Duration::from_millis((20 - i as u64) * 2));
                    i * i
                },
                |i, v| seen.push((i, v)),
            );
            let want: Vec<(usize, usize)> = (0..20).map(|i| (i, i * i)).collect();
            assert_eq!(seen, want, "jobs = {jobs}");
        }
    }

    #[test]
    fn no_jobs_calls_nothing() {
        in_order(0, 4, |_| unreachable!(), |_, ()| unreachable!());
    }

    #[test]
    fn a_panicking_job_is_raised_on_the_caller() {
        let result = std::panic::catch_unwind(|| {
            in_order(10, 2, |i| if i == 3 { panic!("job 3") } else { i }, |_, _| {});
        });
        assert!(result.is_err());
    }
}
