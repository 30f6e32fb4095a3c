//! Reading one line with a length limit, from a client or a peer.

use std::io;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

pub(crate) enum LineRead {
    Complete,
    TooLong,
    Eof,
}

/// Reads one `\n`-terminated line (without the `\n`) into `buf`, refusing lines longer than
/// `limit`. A last line without `\n` before end of input counts as a line.
pub(crate) async fn read_line_limited<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>, limit: usize) -> io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = r.fill_buf().await?;
        if avail.is_empty() {
            return Ok(if buf.is_empty() { LineRead::Eof } else { LineRead::Complete });
        }
        if let Some(i) = avail.iter().position(|&c| c == b'\n') {
            if buf.len() + i > limit {
                r.consume(i + 1);
                return Ok(LineRead::TooLong);
            }
            buf.extend_from_slice(&avail[..i]);
            r.consume(i + 1);
            return Ok(LineRead::Complete);
        }
        let n = avail.len();
        if buf.len() + n > limit {
            r.consume(n);
            return Ok(LineRead::TooLong);
        }
        buf.extend_from_slice(avail);
        r.consume(n);
    }
}

pub(crate) fn shown(line: &[u8]) -> String {
    let cut = &line[..line.len().min(160)];
    format!("{:?}{}", String::from_utf8_lossy(cut), if line.len() > 160 { "…" } else { "" })
}
