package server

// Reading a connection a line at a time with a length limit, for client lines and peer frames.

import (
	"bufio"
	"errors"
)

var errLineTooLong = errors.New("line too long")

// readLine reads one line of at most limit bytes (without the "\n"; one trailing "\r" is
// removed). A longer line returns errLineTooLong.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit+1 {
			return nil, errLineTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, nil
	}
}
