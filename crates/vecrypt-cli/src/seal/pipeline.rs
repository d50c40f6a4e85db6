//! The three stages of a stream: reading, sealing or opening (on all cores), and writing,
//! each on its own thread and overlapping, with memory bounded by [`IN_FLIGHT`] batches.
//!
//! A failure in any stage ends them all. Each stage owns the channel ends it uses, so
//! whichever way it returns, its neighbours see the channel close: the writer's return closes
//! the pool of free batches (the reader stops) and the channel of finished batches (the
//! worker stops at its next send). The worker also watches a stop flag that the writer sets
//! when it returns, so it never waits for a reader stuck on a slow input. The reader is the
//! only stage that can block on the outside world (a pipe nobody writes to); it runs on a
//! thread of its own that a failed stream does not wait for.

use std::io::{ErrorKind, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

use zeroize::Zeroize;

use crate::Failure;

/// Batches in flight: one being read, one being sealed or opened, one being written.
pub(crate) const IN_FLIGHT: usize = 3;

/// How often a worker waiting for input looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// An input read in large pieces with one byte of look-ahead, so that a reader knows
/// whether a full batch is the last one without a buffered copy of the data.
pub(crate) struct Input<R> {
    inner: R,
    peeked: Option<u8>,
}

impl<R> Drop for Input<R> {
    fn drop(&mut self) {
        if let Some(b) = self.peeked.as_mut() {
            b.zeroize();
        }
    }
}

fn read_failure(e: std::io::Error) -> Failure {
    Failure::usage(format!("cannot read the input: {e}"))
}

impl<R: Read> Input<R> {
    pub(crate) fn new(inner: R) -> Self {
        Input {
            inner,
            peeked: None,
        }
    }

    /// Fills `buf` as far as the input goes; returns how much was read.
    pub(crate) fn read_full(&mut self, buf: &mut [u8]) -> Result<usize, Failure> {
        let mut got = 0;
        if let (Some(b), Some(first)) = (self.peeked.take(), buf.first_mut()) {
            *first = b;
            got = 1;
        }
        while got < buf.len() {
            match self.inner.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(read_failure(e)),
            }
        }
        Ok(got)
    }

    /// Whether the input has ended (reads one byte ahead, kept for the next read).
    pub(crate) fn at_eof(&mut self) -> Result<bool, Failure> {
        if self.peeked.is_some() {
            return Ok(false);
        }
        let mut b = [0u8; 1];
        loop {
            match self.inner.read(&mut b) {
                Ok(0) => return Ok(true),
                Ok(_) => {
                    self.peeked = Some(b[0]);
                    b.zeroize();
                    return Ok(false);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(read_failure(e)),
            }
        }
    }
}

/// Consecutive chunks of the stream, each body followed by the room for its tag, stored
/// back to back as the sealed stream lays them out: `seal` reads the bodies into place and
/// writes the tags between them, `open` reads them whole. Wiped when dropped.
pub(crate) struct Batch {
    pub data: Vec<u8>,
    /// Bytes of `data` in use.
    pub len: usize,
    /// The number of chunks in `data[..len]`.
    pub chunks: usize,
    /// The index of the first chunk.
    pub first: u64,
    /// Whether the stream ends with this batch.
    pub last: bool,
    /// Per chunk: whether it authenticated (`open`).
    pub oks: Vec<bool>,
}

impl Batch {
    fn new(bytes: usize) -> Self {
        Batch {
            data: vec![0u8; bytes],
            len: 0,
            chunks: 0,
            first: 0,
            last: false,
            oks: Vec::new(),
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.data.zeroize();
    }
}

/// Sets the flag when dropped, however its owner returns.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

type Sent = Result<Batch, Failure>;

/// Runs a stream through the three stages: `read` fills a batch from the input (setting its
/// length, chunk count and `last`), `work` seals or opens a batch in place, and `write`
/// hands each batch to the output, in order, on the calling thread. Returns the first
/// failure of any stage, or `Ok` once the batch marked `last` is written.
pub(crate) fn run<R, FR, FW, FO>(
    input: Input<R>,
    batch_bytes: usize,
    read: FR,
    work: FW,
    write: FO,
) -> Result<(), Failure>
where
    R: Read + Send + 'static,
    FR: FnMut(&mut Input<R>, &mut Batch) -> Result<(), Failure> + Send + 'static,
    FW: Fn(&mut Batch) -> Result<(), Failure> + Sync,
    FO: FnMut(&Batch) -> Result<(), Failure>,
{
    let (free_tx, free_rx) = sync_channel::<Batch>(IN_FLIGHT);
    let (read_tx, read_rx) = sync_channel::<Sent>(1);
    let (done_tx, done_rx) = sync_channel::<Sent>(1);
    for _ in 0..IN_FLIGHT {
        // The pool's capacity holds every batch, so this cannot block or fail.
        free_tx
            .send(Batch::new(batch_bytes))
            .map_err(|_| Failure::usage("internal error: the batch pool is closed"))?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let reader = std::thread::Builder::new()
        .name("vecrypt-read".into())
        .spawn(move || read_stage(input, read, free_rx, read_tx))
        .map_err(|e| Failure::usage(format!("cannot start a thread: {e}")))?;
    let result = std::thread::scope(|scope| {
        let (work, stop_seen) = (&work, Arc::clone(&stop));
        scope.spawn(move || work_stage(work, read_rx, done_tx, &stop_seen));
        write_stage(write, done_rx, free_tx, StopOnDrop(stop))
    });
    if result.is_ok() {
        // The reader sent the last batch and has returned; a failed stream does not wait.
        let _ = reader.join();
    }
    result
}

fn read_stage<R: Read, FR: FnMut(&mut Input<R>, &mut Batch) -> Result<(), Failure>>(
    mut input: Input<R>,
    mut read: FR,
    free: Receiver<Batch>,
    filled: SyncSender<Sent>,
) {
    let mut first = 0u64;
    while let Ok(mut batch) = free.recv() {
        batch.first = first;
        let r = read(&mut input, &mut batch);
        let stop = r.is_err() || batch.last;
        first += batch.chunks as u64;
        if filled.send(r.map(|()| batch)).is_err() || stop {
            return;
        }
    }
}

fn work_stage<FW: Fn(&mut Batch) -> Result<(), Failure>>(
    work: &FW,
    filled: Receiver<Sent>,
    done: SyncSender<Sent>,
    stop: &AtomicBool,
) {
    loop {
        let got = match filled.recv_timeout(POLL) {
            Ok(got) => got,
            Err(RecvTimeoutError::Timeout) if !stop.load(Ordering::Acquire) => continue,
            Err(_) => return,
        };
        let r = got.and_then(|mut b| work(&mut b).map(|()| b));
        let end = r.as_ref().map_or(true, |b| b.last);
        if done.send(r).is_err() || end {
            return;
        }
    }
}

fn write_stage<FO: FnMut(&Batch) -> Result<(), Failure>>(
    mut write: FO,
    done: Receiver<Sent>,
    free: SyncSender<Batch>,
    _stop: StopOnDrop,
) -> Result<(), Failure> {
    for got in &done {
        let batch = got?;
        write(&batch)?;
        if batch.last {
            return Ok(());
        }
        // The reader may have stopped already; then the batch is not needed.
        let _ = free.send(batch);
    }
    Err(Failure::usage("internal error: a stage stopped early"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_ahead_keeps_the_byte() {
        let data: Vec<u8> = (0..10u8).collect();
        let mut input = Input::new(&data[..]);
        let mut buf = [0u8; 4];
        assert_eq!(input.read_full(&mut buf).unwrap_or(0), 4);
        assert!(!input.at_eof().unwrap_or(true));
        assert!(!input.at_eof().unwrap_or(true));
        let mut rest = [0u8; 8];
        assert_eq!(input.read_full(&mut rest).unwrap_or(0), 6);
        assert_eq!(&rest[..6], &data[4..]);
        assert!(input.at_eof().unwrap_or(false));
    }
}
