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

/// The link to peer `to`: dials, writes what the core sends, reconnects with back-off. While
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
                    if let Err(e) = stream.write_all(&batch).await {
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

    // The kernel's buffers on a peer link are bounded on both ends (autotuned loopback buffers
    // held megabytes for a stopped peer, out of reach of the queue's limits). Linux reports
    // twice the size asked for (its bookkeeping overhead).
    #[test]
    fn peer_socket_buffers_are_bounded() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let listener = listen_for_peers("127.0.0.1:0".parse().unwrap()).unwrap();
            let addr = listener.local_addr().unwrap();
            let accepting = tokio::spawn(async move { listener.accept().await });
            let dialed = dial_peer(addr).await;
            let accepted = accepting.await.unwrap();
            let bound = 2 * PEER_SOCKET_BUFFER_BYTES;
            let send = TcpSocket::from_std_stream(dialed.unwrap().into_std().unwrap()).send_buffer_size().unwrap();
            assert!(send <= bound, "the link's send buffer is {send} bytes");
            let recv = TcpSocket::from_std_stream(accepted.unwrap().0.into_std().unwrap()).recv_buffer_size().unwrap();
            assert!(recv <= bound, "a peer connection's receive buffer is {recv} bytes");
        });
    }
}
