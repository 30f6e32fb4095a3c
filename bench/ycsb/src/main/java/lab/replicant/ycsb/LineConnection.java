package lab.replicant.ycsb;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One TCP connection to one Replicant node, one request in flight: write a line, read a line.
 * The protocol is ASCII, so bytes and chars map one to one (ISO-8859-1).
 */
final class LineConnection implements AutoCloseable {
  /** Replies longer than this are a protocol error (values are at most 64 KiB). */
  static final int MAX_REPLY_BYTES = 1 << 20;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] buffer = new byte[64 << 10];
  private int start;
  private int end;

  LineConnection(String host, int port, int timeoutMs) throws IOException {
    socket = new Socket();
    try {
      socket.setTcpNoDelay(true); // the paper disables Nagle's algorithm everywhere (§4.6)
      socket.setSoTimeout(timeoutMs);
      socket.connect(new InetSocketAddress(host, port), timeoutMs);
      in = socket.getInputStream();
      out = new BufferedOutputStream(socket.getOutputStream(), 4096);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  /** Sends one command line and returns the reply line, without its newline. */
  String request(String line) throws IOException {
    out.write(line.getBytes(StandardCharsets.ISO_8859_1));
    out.write('\n');
    out.flush();
    return readLine();
  }

  private String readLine() throws IOException {
    StringBuilder partial = null;
    while (true) {
      for (int i = start; i < end; i++) {
        if (buffer[i] == '\n') {
          String piece = new String(buffer, start, i - start, StandardCharsets.ISO_8859_1);
          start = i + 1;
          return partial == null ? piece : partial.append(piece).toString();
        }
      }
      if (start < end) {
        if (partial == null) partial = new StringBuilder();
        partial.append(new String(buffer, start, end - start, StandardCharsets.ISO_8859_1));
        if (partial.length() > MAX_REPLY_BYTES) throw new IOException("reply longer than " + MAX_REPLY_BYTES + " bytes");
      }
      start = 0;
      end = in.read(buffer);
      if (end < 0) {
        end = 0;
        throw new IOException("connection closed by the server");
      }
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a broken socket has nothing left to report
    }
  }
}
