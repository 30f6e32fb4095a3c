#include "json.h"

namespace replicant {

const JsonValue* JsonValue::Find(std::string_view name) const {
  for (const JsonField& f : fields) {
    if (f.name == name) return &f.value;
  }
  return nullptr;
}

namespace {

class JsonReader {
 public:
  explicit JsonReader(std::string_view in) : in_(in) {}

  bool Document(JsonValue* out) {
    if (!Value(out)) return false;
    SkipSpace();
    return pos_ == in_.size();
  }

 private:
  bool AtEnd() const { return pos_ >= in_.size(); }
  unsigned char Peek() const { return static_cast<unsigned char>(in_[pos_]); }

  void SkipSpace() {
    while (!AtEnd()) {
      switch (Peek()) {
        case ' ':
        case '\t':
        case '\n':
        case '\r':
          pos_++;
          break;
        default:
          return;
      }
    }
  }

  bool Literal(std::string_view word) {
    if (in_.size() - pos_ < word.size() || in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Value(JsonValue* out) {
    SkipSpace();
    if (AtEnd()) return false;
    unsigned char c = Peek();
    switch (c) {
      case '{':
        return Object(out);
      case '[':
        return Array(out);
      case '"':
        out->kind = JsonKind::kString;
        return String(&out->s);
      case 't':
        out->kind = JsonKind::kBool;
        out->b = true;
        return Literal("true");
      case 'f':
        out->kind = JsonKind::kBool;
        out->b = false;
        return Literal("false");
      case 'n':
        out->kind = JsonKind::kNull;
        return Literal("null");
      default:
        if (c >= '0' && c <= '9') return Number(out);
        return false;
    }
  }

  // Number accepts only what our schemas allow: a non-negative integer below 2^53 written
  // without fraction or exponent. Any other JSON number is rejected here.
  bool Number(JsonValue* out) {
    size_t start = pos_;
    while (!AtEnd() && Peek() >= '0' && Peek() <= '9') pos_++;
    size_t len = pos_ - start;
    if (len > 1 && in_[start] == '0') return false;
    if (!AtEnd()) {
      unsigned char c = Peek();
      if (c == '.' || c == 'e' || c == 'E') return false;
    }
    if (len > 16) return false;  // 2^53 has 16 digits; anything longer is too big
    uint64_t n = 0;
    for (size_t i = start; i < pos_; i++) n = n * 10 + static_cast<uint64_t>(in_[i] - '0');
    if (n > kMaxSafeInt) return false;
    out->kind = JsonKind::kNumber;
    out->n = n;
    return true;
  }

  static int HexDigit(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // String reads a string. Escapes of code points >= 0x80 decode to a two-byte non-ASCII
  // marker (as the Go reader does); every field of ours then rejects them as non-ASCII, as it
  // rejects raw non-ASCII bytes.
  bool String(std::string* out) {
    pos_++;  // opening quote
    out->clear();
    size_t start = pos_;
    for (;;) {
      if (AtEnd()) return false;
      unsigned char c = Peek();
      if (c == '"') {
        out->append(in_.data() + start, pos_ - start);
        pos_++;
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        pos_++;
        continue;
      }
      out->append(in_.data() + start, pos_ - start);
      if (pos_ + 1 >= in_.size()) return false;
      unsigned char e = static_cast<unsigned char>(in_[pos_ + 1]);
      pos_ += 2;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(static_cast<char>(e));
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          if (pos_ + 4 > in_.size()) return false;
          uint32_t cp = 0;
          for (size_t i = 0; i < 4; i++) {
            int d = HexDigit(static_cast<unsigned char>(in_[pos_ + i]));
            if (d < 0) return false;
            cp = cp << 4 | static_cast<uint32_t>(d);
          }
          pos_ += 4;
          if (cp < 0x80) {
            out->push_back(static_cast<char>(cp));
          } else {
            out->push_back(static_cast<char>(0xc0 | ((cp >> 6) & 0x1f)));
            out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
          }
          break;
        }
        default:
          return false;
      }
      start = pos_;
    }
  }

  bool Enter() { return ++depth_ <= kMaxJsonDepth; }

  // OpenList steps into a list (an array or an object) at its opening bracket; *more says
  // whether an item follows (false: the list closed at once).
  bool OpenList(unsigned char close, bool* more) {
    if (!Enter()) return false;
    pos_++;
    SkipSpace();
    *more = AtEnd() || Peek() != close;
    if (!*more) {
      pos_++;
      depth_--;
    }
    return true;
  }

  // NextItem steps over what follows an item of a list: a comma (*more: another item follows)
  // or the list's closing bracket.
  bool NextItem(unsigned char close, bool* more) {
    SkipSpace();
    if (AtEnd()) return false;
    if (Peek() == ',') {
      pos_++;
      *more = true;
      return true;
    }
    if (Peek() != close) return false;
    pos_++;
    depth_--;
    *more = false;
    return true;
  }

  bool Array(JsonValue* out) {
    bool more = false;
    if (!OpenList(']', &more)) return false;
    out->kind = JsonKind::kArray;
    while (more) {
      out->items.emplace_back();
      if (!Value(&out->items.back())) return false;
      if (!NextItem(']', &more)) return false;
    }
    return true;
  }

  bool Object(JsonValue* out) {
    bool more = false;
    if (!OpenList('}', &more)) return false;
    out->kind = JsonKind::kObject;
    while (more) {
      SkipSpace();
      if (AtEnd() || Peek() != '"') return false;
      std::string name;
      if (!String(&name)) return false;
      if (out->Find(name) != nullptr) return false;  // duplicate key
      SkipSpace();
      if (AtEnd() || Peek() != ':') return false;
      pos_++;
      out->fields.push_back(JsonField{std::move(name), JsonValue{}});
      if (!Value(&out->fields.back().value)) return false;
      if (!NextItem('}', &more)) return false;
    }
    return true;
  }

  std::string_view in_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

bool ParseJson(std::string_view in, JsonValue* out) {
  *out = JsonValue{};
  return JsonReader(in).Document(out);
}

// --- the canonical writer ---

void AppendUint(std::string& b, uint64_t n) {
  char buf[20];
  size_t i = sizeof buf;
  do {
    buf[--i] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  b.append(buf + i, sizeof buf - i);
}

void AppendJsonString(std::string& b, std::string_view s) {
  b.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') b.push_back('\\');
    b.push_back(c);
  }
  b.push_back('"');
}

void AppendField(std::string& b, std::string_view name, bool first) {
  if (!first) b.push_back(',');
  b.push_back('"');
  b.append(name);
  b.append("\":");
}

void AppendUintField(std::string& b, std::string_view name, uint64_t n, bool first) {
  AppendField(b, name, first);
  AppendUint(b, n);
}

void AppendStringField(std::string& b, std::string_view name, std::string_view s, bool first) {
  AppendField(b, name, first);
  AppendJsonString(b, s);
}

void AppendBoolField(std::string& b, std::string_view name, bool v, bool first) {
  AppendField(b, name, first);
  b.append(v ? "true" : "false");
}

}  // namespace replicant
