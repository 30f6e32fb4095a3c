//! Peer links: the writer task for each outgoing link (its bounded queue is in outbound.rs),
//! and the reader of each connection another node opened to us.

use crate::core_driver::Shared;
use crate::limits::*;
use crate::line_reader::{read_line_limited, shown, LineRead};
use replicant_core::{decode_message, Event};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

/// One connection another node opened to us: its messages, one per line.
pub(crate) async fn serve_peer(shared: Arc<Shared>, stream: TcpStream, addr: SocketAddr) {
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::with_capacity(1 << 16, stream);
    let mut line = Vec::new();
    loop {
        match read_line_limited(&mut reader, &mut line, MAX_PEER_LINE).await {
            Ok(LineRead::Complete) => match decode_message(&line) {
                Err(e) => {
                    shared.counters.garbage_frames.fetch_add(1, Ordering::Relaxed);
                    shared.log(&format!("dropped a peer frame from {addr} ({e}): {}", shown(&line)));
                }
                Ok(m) if m.to != shared.id || m.from >= shared.num_peers || m.from == shared.id => {
                    shared.counters.garbage_frames.fetch_add(1, Ordering::Relaxed);
                    shared.log(&format!("dropped a message from {addr} with from={} to={}", m.from, m.to));
                }
                Ok(m) => shared.step(Event::Message(m)),
            },
            Ok(LineRead::TooLong) => {
                shared.log(&format!("peer {addr} sent a line longer than {MAX_PEER_LINE} bytes; closing"));
                return;
            }
            Ok(LineRead::Eof) => return,
            Err(e) => {
                if shared.verbose {
                    shared.log(&format!("peer {addr}: {e}"));
                }
                return;
            }
        }
    }
}

/// Listens for peers with a bounded kernel receive buffer (PEER_SOCKET_BUFFER_BYTES; the
/// connections it accepts inherit it): what the kernel holds for a stopped node is bounded.
pub(crate) fn listen_for_peers(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.set_recv_buffer_size(PEER_SOCKET_BUFFER_BYTES)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// Dials a peer with a bounded kernel send buffer (PEER_SOCKET_BUFFER_BYTES).
pub(crate) async fn dial_peer(addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = if addr.is_ipv4() { TcpSocket::new_v4()? } else { TcpSocket::new_v6()? };
    socket.set_send_buffer_size(PEER_SOCKET_BUFFER_BYTES)?;
    socket.connect(addr).await
}

/// Writes all of `buf`, failing (TimedOut) when no byte of it is taken for MAX_PEER_WRITE_STALL:
/// a peer that stopped reading (or a closed receive window whose reopening went unnoticed) gets
/// a fresh connection instead of a writer blocked behind it (issue 20).
pub(crate) async fn write_with_progress(stream: &mut TcpStream, mut buf: &[u8]) -> std::io::Result<()> {
    while !buf.is_empty() {
        match tokio::time::timeout(MAX_PEER_WRITE_STALL, stream.write(buf)).await {
            Ok(Ok(0)) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(Ok(n)) => buf = &buf[n..],
            Ok(Err(e)) => return Err(e),
            Err(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no write progress for {MAX_PEER_WRITE_STALL:?} with {} bytes to send", buf.len()),
                ))
            }
        }
    }
    Ok(())
}

/// The link to peer `to`: dials, writes what the core sends (redialling when a write makes no
/// progress for MAX_PEER_WRITE_STALL), reconnects with back-off. While
/// the link is down its messages are dropped (the protocol retries on its own).
pub(crate) async fn peer_writer(shared: Arc<Shared>, to: u64, addr: SocketAddr) {
    let Some(Some(link)) = shared.peers.get(to as usize) else { return };
    // The redial interval stays under the election timeout (at least 1.5 commit intervals): a
    // restarted peer must hear our heartbeat before its first election timer fires, or it starts
    // an election, wins it with an empty log, and cannot execute what the others have already
    // trimmed (docs/protocol.md, "Native servers").
    let max_backoff = Duration::from_millis(shared.commit_interval_ms / 2).max(Duration::from_millis(1));
    let min_backoff = Duration::from_millis(25).min(max_backoff);
    let mut backoff = min_backoff;
    let mut was_connected = false;
    loop {
        match dial_peer(addr).await {
            Ok(mut stream) => {
                let _ = stream.set_nodelay(true);
                backoff = min_backoff;
                if shared.verbose || was_connected {
                    shared.log(&format!("connected to peer {to} at {addr}"));
                }
                was_connected = true;
                link.set_up(true, &shared.counters);
                loop {
                    let batch = link.take_batch(&shared.counters);
                    if batch.is_empty() {
                        link.wake.notified().await;
                        continue;
                    }
                    if let Err(e) = write_with_progress(&mut stream, &batch).await {
                        shared.log(&format!("link to peer {to} at {addr} broke: {e}; reconnecting"));
                        break;
                    }
                }
                link.set_up(false, &shared.counters);
            }
            Err(e) => {
                if shared.verbose {
                    shared.log(&format!("cannot reach peer {to} at {addr}: {e}"));
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(max_backoff);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer link on loopback as the server makes one: the dialled end and the accepted end.
    async fn peer_link_pair() -> (TcpStream, TcpStream) {
        let listener = listen_for_peers("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let accepting = tokio::spawn(async move { listener.accept().await });
        let dialed = dial_peer(addr).await.unwrap();
        let (accepted, _) = accepting.await.unwrap().unwrap();
        (dialed, accepted)
    }

    // The kernel's buffers on a peer link are bounded on both ends (autotuned loopback buffers
    // held megabytes for a stopped peer, out of reach of the queue's limits). Linux reports
    // twice the size asked for (its bookkeeping overhead).
    #[test]
    fn peer_socket_buffers_are_bounded() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let (dialed, accepted) = peer_link_pair().await;
            let bound = 2 * PEER_SOCKET_BUFFER_BYTES;
            let send = TcpSocket::from_std_stream(dialed.into_std().unwrap()).send_buffer_size().unwrap();
            assert!(send <= bound, "the link's send buffer is {send} bytes");
            let recv = TcpSocket::from_std_stream(accepted.into_std().unwrap()).recv_buffer_size().unwrap();
            assert!(recv <= bound, "a peer connection's receive buffer is {recv} bytes");
        });
    }

    // A link whose writes make no progress for MAX_PEER_WRITE_STALL gives up on the connection
    // (the writer task then redials) instead of blocking behind a peer that stopped reading
    // (issue 20: after SIGCONT a node heard nothing for 8 s while 64 kB sat in the leader's send
    // buffer). The peer here accepts and never reads.
    #[test]
    fn a_write_that_makes_no_progress_fails() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let (mut dialed, _held) = peer_link_pair().await; // the accepted end: open, never read
            // far more than both kernels' buffers hold
            let buf = vec![b'x'; 4 << 20];
            let r = tokio::time::timeout(Duration::from_secs(20), write_with_progress(&mut dialed, &buf)).await;
            match r {
                Ok(Err(e)) => assert_eq!(e.kind(), std::io::ErrorKind::TimedOut, "{e}"),
                Ok(Ok(())) => panic!("4 MiB written to a peer that never reads"),
                Err(_) => panic!("the write was still blocked after 20 s (stall limit {MAX_PEER_WRITE_STALL:?})"),
            }
        });
    }
}
