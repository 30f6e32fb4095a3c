package core

import (
	"errors"
	"strconv"
)

// A strict JSON reader (RFC 8259 plus the rules of docs/protocol.md: non-negative integers
// below 2^53 only, no duplicate keys, nesting at most maxJSONDepth) and helpers for the
// canonical writer. Hand-written so that all four engines accept and reject exactly the same
// inputs, and so that the wasm builds stay small.

const (
	maxJSONDepth = 16
	maxSafeInt   = 1<<53 - 1
)

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

type jsonField struct {
	name  string
	value *jsonValue
}

type jsonValue struct {
	kind   jsonKind
	b      bool
	n      uint64
	s      string
	items  []*jsonValue
	fields []jsonField
}

var errJSON = errors.New("invalid json")

type jsonReader struct {
	in    []byte
	pos   int
	depth int
}

// parseJSON reads exactly one JSON value (surrounded by optional whitespace).
func parseJSON(in []byte) (*jsonValue, error) {
	r := jsonReader{in: in}
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	r.skipSpace()
	if r.pos != len(r.in) {
		return nil, errJSON
	}
	return v, nil
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *jsonReader) literal(word string) bool {
	if len(r.in)-r.pos < len(word) || string(r.in[r.pos:r.pos+len(word)]) != word {
		return false
	}
	r.pos += len(word)
	return true
}

func (r *jsonReader) value() (*jsonValue, error) {
	r.skipSpace()
	if r.pos >= len(r.in) {
		return nil, errJSON
	}
	switch c := r.in[r.pos]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		return &jsonValue{kind: jsonString, s: s}, nil
	case c == 't':
		if r.literal("true") {
			return &jsonValue{kind: jsonBool, b: true}, nil
		}
	case c == 'f':
		if r.literal("false") {
			return &jsonValue{kind: jsonBool}, nil
		}
	case c == 'n':
		if r.literal("null") {
			return &jsonValue{kind: jsonNull}, nil
		}
	case c >= '0' && c <= '9':
		return r.number()
	}
	return nil, errJSON
}

// number accepts only what our schemas allow: a non-negative integer below 2^53 written
// without fraction or exponent. Any other JSON number is rejected here.
func (r *jsonReader) number() (*jsonValue, error) {
	start := r.pos
	for r.pos < len(r.in) && r.in[r.pos] >= '0' && r.in[r.pos] <= '9' {
		r.pos++
	}
	digits := r.in[start:r.pos]
	if len(digits) > 1 && digits[0] == '0' {
		return nil, errJSON
	}
	if r.pos < len(r.in) {
		if c := r.in[r.pos]; c == '.' || c == 'e' || c == 'E' {
			return nil, errJSON
		}
	}
	if len(digits) > 16 {
		return nil, errJSON
	}
	n, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil || n > maxSafeInt {
		return nil, errJSON
	}
	return &jsonValue{kind: jsonNumber, n: n}, nil
}

func hexDigit(c byte) (uint32, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint32(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint32(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

// str reads a string. Escapes of code points >= 0x80 decode to UTF-8; every field of ours
// then rejects them as non-ASCII, as it rejects raw non-ASCII bytes.
func (r *jsonReader) str() (string, error) {
	r.pos++ // opening quote
	var out []byte
	start := r.pos
	for {
		if r.pos >= len(r.in) {
			return "", errJSON
		}
		c := r.in[r.pos]
		switch {
		case c == '"':
			if out == nil {
				s := string(r.in[start:r.pos])
				r.pos++
				return s, nil
			}
			out = append(out, r.in[start:r.pos]...)
			r.pos++
			return string(out), nil
		case c < 0x20:
			return "", errJSON
		case c == '\\':
			out = append(out, r.in[start:r.pos]...)
			if r.pos+1 >= len(r.in) {
				return "", errJSON
			}
			e := r.in[r.pos+1]
			r.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if r.pos+4 > len(r.in) {
					return "", errJSON
				}
				var cp uint32
				for i := 0; i < 4; i++ {
					d, ok := hexDigit(r.in[r.pos+i])
					if !ok {
						return "", errJSON
					}
					cp = cp<<4 | d
				}
				r.pos += 4
				if cp < 0x80 {
					out = append(out, byte(cp))
				} else {
					out = append(out, 0xc0|byte(cp>>6&0x1f), 0x80|byte(cp&0x3f)) // non-ASCII marker
				}
			default:
				return "", errJSON
			}
			if out == nil {
				out = []byte{}
			}
			start = r.pos
		default:
			r.pos++
		}
	}
}

func (r *jsonReader) enter() error {
	r.depth++
	if r.depth > maxJSONDepth {
		return errJSON
	}
	return nil
}

// openList steps into a list (an array or an object) at its opening bracket and says whether an
// item follows (false: the list closed at once).
func (r *jsonReader) openList(close byte) (bool, error) {
	if err := r.enter(); err != nil {
		return false, err
	}
	r.pos++
	r.skipSpace()
	if r.pos < len(r.in) && r.in[r.pos] == close {
		r.pos++
		r.depth--
		return false, nil
	}
	return true, nil
}

// nextItem steps over what follows an item of a list: a comma (true: another item follows) or
// the list's closing bracket (false).
func (r *jsonReader) nextItem(close byte) (bool, error) {
	r.skipSpace()
	if r.pos >= len(r.in) {
		return false, errJSON
	}
	switch r.in[r.pos] {
	case ',':
		r.pos++
		return true, nil
	case close:
		r.pos++
		r.depth--
		return false, nil
	}
	return false, errJSON
}

func (r *jsonReader) array() (*jsonValue, error) {
	more, err := r.openList(']')
	if err != nil {
		return nil, err
	}
	v := &jsonValue{kind: jsonArray}
	for more {
		item, err := r.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
		if more, err = r.nextItem(']'); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (r *jsonReader) object() (*jsonValue, error) {
	more, err := r.openList('}')
	if err != nil {
		return nil, err
	}
	v := &jsonValue{kind: jsonObject}
	for more {
		r.skipSpace()
		if r.pos >= len(r.in) || r.in[r.pos] != '"' {
			return nil, errJSON
		}
		name, err := r.str()
		if err != nil {
			return nil, err
		}
		for _, f := range v.fields {
			if f.name == name {
				return nil, errJSON // duplicate key
			}
		}
		r.skipSpace()
		if r.pos >= len(r.in) || r.in[r.pos] != ':' {
			return nil, errJSON
		}
		r.pos++
		item, err := r.value()
		if err != nil {
			return nil, err
		}
		v.fields = append(v.fields, jsonField{name: name, value: item})
		if more, err = r.nextItem('}'); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// --- the canonical writer ---

func formatUint(n uint64) string { return strconv.FormatUint(n, 10) }

func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\', c)
		} else {
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendField writes `"name":` preceded by a comma unless it is the first field.
func appendField(b []byte, name string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

func appendUintField(b []byte, name string, n uint64, first bool) []byte {
	return strconv.AppendUint(appendField(b, name, first), n, 10)
}

func appendStringField(b []byte, name, s string, first bool) []byte {
	return appendJSONString(appendField(b, name, first), s)
}

func appendBoolField(b []byte, name string, v bool, first bool) []byte {
	return strconv.AppendBool(appendField(b, name, first), v)
}
