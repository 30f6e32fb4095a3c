// Parses JSON and remembers the line each value starts on, keyed by its JSON pointer
// ("/steps/2/checkpoints/0"), so a schema error can name the line a lesson author must fix.
// JSON.parse says "position 812" at best; authors think in lines.

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export interface ParsedJson {
  value: unknown;
  /** JSON pointer -> 1-based line where that value (or, for a key, its value) starts. */
  lines: Map<string, number>;
}

export function parseJsonWithLines(text: string): ParsedJson {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(what, line);
  };
  const skip = () => {
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const describe = () => (i >= text.length ? 'the end of the file' : `"${text[i]}"`);

  const parseString = (): string => {
    const start = i;
    i++;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '"') break;
      else if (c === '\n') fail('a string runs past the end of its line (missing closing quote?)');
    }
    if (i >= text.length) fail('a string is not closed');
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('a string has a bad escape sequence');
    }
  };

  const parseValue = (pointer: string): unknown => {
    skip();
    lines.set(pointer, line);
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      skip();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail(`expected a quoted key, found ${describe()}`);
        const key = parseString();
        if (Object.prototype.hasOwnProperty.call(out, key)) fail(`key "${key}" appears twice`);
        skip();
        if (text[i] !== ':') fail(`expected ":" after key "${key}", found ${describe()}`);
        i++;
        out[key] = parseValue(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return out;
        }
        fail(`expected "," or "}" after the value of "${key}", found ${describe()}`);
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(parseValue(`${pointer}/${out.length}`));
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return out;
        }
        fail(`expected "," or "]" in a list, found ${describe()}`);
      }
    }
    if (c === '"') return parseString();
    const m = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) return fail(`expected a value, found ${describe()}`);
    i += m[0].length;
    return JSON.parse(m[0]) as unknown;
  };

  const value = parseValue('');
  skip();
  if (i < text.length) fail(`unexpected ${describe()} after the end of the document`);
  return { value, lines };
}

/** The line of the closest enclosing value that has one (a missing key is reported on its parent). */
export function lineOf(lines: Map<string, number>, pointer: string): number {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const l = lines.get(p);
    if (l !== undefined) return l;
    if (p === '') return 1;
  }
}
