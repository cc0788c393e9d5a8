//! Many controlled runs stepped together on native threads (`hopsim.gym`'s vector
//! environment). The runs are split into contiguous chunks, one per worker; the caller's
//! thread steps the first chunk itself and each other worker owns its chunk for good, so a
//! step moves only the actions and the results between threads, in buffers that go back and
//! forth (no allocation per step). Runs are independent: the results are the same whatever
//! the number of workers.

use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;

use super::{StepOut, WindowControl};
use crate::error::ScenarioError;

type Outs = Vec<Result<StepOut, ScenarioError>>;

/// Polls of a channel before blocking on it: steps come microseconds apart, and waking a
/// blocked thread costs tens of microseconds. After the first `SPINS_BUSY` the poller
/// yields its core between polls, so that a loaded machine's other work goes on.
const SPINS: u32 = 5_000;
const SPINS_BUSY: u32 = 200;

/// The next message, polled for a while before blocking (None: the sender is gone).
fn receive<T>(rx: &Receiver<T>) -> Option<T> {
    for i in 0..SPINS {
        match rx.try_recv() {
            Ok(v) => return Some(v),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) if i < SPINS_BUSY => std::hint::spin_loop(),
            Err(TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    rx.recv().ok()
}

enum Job {
    Step(Vec<f64>, Outs),
    Replace(usize, Box<WindowControl>),
}

struct Worker {
    jobs: Sender<Job>,
    done: Receiver<(Vec<f64>, Outs)>,
    handle: Option<JoinHandle<()>>,
    /// Buffers between steps (taken while the worker has them).
    actions: Vec<f64>,
    outs: Outs,
    len: usize,
}

/// Controlled runs stepped together: run `i` is in chunk `i / chunk` (chunk 0 here).
pub struct ControlPool {
    own: Vec<WindowControl>,
    workers: Vec<Worker>,
    chunk: usize,
    len: usize,
}

/// Step each run with its action; a NaN action holds the run (its last result again: a run
/// just replaced gives its first observation).
fn step_all(runs: &mut [WindowControl], actions: &[f64], outs: &mut Outs) {
    outs.clear();
    outs.extend(runs.iter_mut().zip(actions).map(|(r, a)| {
        if a.is_nan() {
            Ok(r.out(0))
        } else {
            r.step(*a)
        }
    }));
}

impl ControlPool {
    /// `runs` stepped by `workers` threads (the caller's included; at least 1, at most one
    /// per run).
    pub fn new(mut runs: Vec<WindowControl>, workers: usize) -> ControlPool {
        let len = runs.len();
        let workers = workers.clamp(1, len.max(1));
        let chunk = len.div_ceil(workers).max(1);
        let mut rest = runs.split_off(chunk.min(len));
        let mut pool = ControlPool { own: runs, workers: Vec::new(), chunk, len };
        while !rest.is_empty() {
            let tail = rest.split_off(chunk.min(rest.len()));
            let mut mine = std::mem::replace(&mut rest, tail);
            let n = mine.len();
            let (jobs, job_rx) = channel::<Job>();
            let (done_tx, done) = channel();
            let handle = std::thread::spawn(move || {
                while let Some(job) = receive(&job_rx) {
                    match job {
                        Job::Step(actions, mut outs) => {
                            step_all(&mut mine, &actions, &mut outs);
                            if done_tx.send((actions, outs)).is_err() {
                                return;
                            }
                        }
                        Job::Replace(i, run) => mine[i] = *run,
                    }
                }
            });
            pool.workers.push(Worker {
                jobs,
                done,
                handle: Some(handle),
                actions: Vec::with_capacity(n),
                outs: Vec::with_capacity(n),
                len: n,
            });
        }
        pool
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Threads stepping the runs, the caller's included.
    pub fn workers(&self) -> usize {
        1 + self.workers.len()
    }

    /// Run `i` from now on is `run` (a new episode).
    pub fn replace(&mut self, i: usize, run: WindowControl) {
        assert!(i < self.len, "run {i} of {}", self.len);
        let (w, k) = (i / self.chunk, i % self.chunk);
        if w == 0 {
            self.own[k] = run;
        } else {
            let worker = &self.workers[w - 1];
            worker.jobs.send(Job::Replace(k, Box::new(run))).expect("a pool worker stopped");
        }
    }

    /// Step every run with its action (NaN: hold it); `out` gets one result per run, in
    /// order.
    pub fn step(&mut self, actions: &[f64], out: &mut Vec<Result<StepOut, ScenarioError>>) {
        assert_eq!(actions.len(), self.len, "one action per run");
        let mut at = self.own.len();
        for w in &mut self.workers {
            let mut buf = std::mem::take(&mut w.actions);
            buf.clear();
            buf.extend_from_slice(&actions[at..at + w.len]);
            at += w.len;
            w.jobs
                .send(Job::Step(buf, std::mem::take(&mut w.outs)))
                .expect("a pool worker stopped");
        }
        let mine = self.own.len();
        step_all(&mut self.own, &actions[..mine], out);
        for w in &mut self.workers {
            let (buf, mut outs) = receive(&w.done).expect("a pool worker stopped");
            out.append(&mut outs);
            (w.actions, w.outs) = (buf, outs);
        }
    }
}

impl Drop for ControlPool {
    fn drop(&mut self) {
        for w in &mut self.workers {
            let (jobs, _) = channel();
            drop(std::mem::replace(&mut w.jobs, jobs)); // the worker's loop ends
            if let Some(h) = w.handle.take() {
                let _ = h.join();
            }
        }
    }
}
