import { isPlainAscii, SECRET_NAMES, type CanonicalReader, type SecretForm } from './forms.js';

/** Largest transition table (states × byte classes) built for a scanner; a larger automaton steps through its trie. */
const MAX_TABLE_ENTRIES = 1 << 21;

/**
 * The trie's edges (state and byte to the next state) in typed arrays, open-addressed: the forms of a fleet's tokens
 * make millions of edges, which a Map would hold at several times the memory.
 */
class EdgeTable {
  private fromState = new Int32Array(1024).fill(-1);
  private byteOf = new Uint8Array(1024);
  private toState = new Int32Array(1024);
  size = 0;

  private slot(state: number, byte: number): number {
    const mask = this.fromState.length - 1;
    let slot = (Math.imul(state, 0x9e3779b1) ^ Math.imul(byte + 1, 0x85ebca6b)) & mask;
    while (this.fromState[slot] !== -1 && (this.fromState[slot] !== state || this.byteOf[slot] !== byte)) slot = (slot + 1) & mask;
    return slot;
  }

  get(state: number, byte: number): number | undefined {
    const slot = this.slot(state, byte);
    return this.fromState[slot] === -1 ? undefined : this.toState[slot];
  }

  set(state: number, byte: number, target: number): void {
    // At most half full, so that a probe ends soon.
    if ((this.size + 1) * 2 > this.fromState.length) this.grow();
    const slot = this.slot(state, byte);
    if (this.fromState[slot] === -1) this.size += 1;
    this.fromState[slot] = state;
    this.byteOf[slot] = byte;
    this.toState[slot] = target;
  }

  /** Calls back for every edge, in no particular order. */
  forEach(callback: (state: number, byte: number, target: number) => void): void {
    for (let slot = 0; slot < this.fromState.length; slot += 1) {
      const state = this.fromState[slot] ?? -1;
      if (state !== -1) callback(state, this.byteOf[slot] ?? 0, this.toState[slot] ?? 0);
    }
  }

  private grow(): void {
    const old = { fromState: this.fromState, byteOf: this.byteOf, toState: this.toState };
    const capacity = old.fromState.length * 2;
    this.fromState = new Int32Array(capacity).fill(-1);
    this.byteOf = new Uint8Array(capacity);
    this.toState = new Int32Array(capacity);
    this.size = 0;
    for (let slot = 0; slot < old.fromState.length; slot += 1) {
      const state = old.fromState[slot] ?? -1;
      if (state !== -1) this.set(state, old.byteOf[slot] ?? 0, old.toState[slot] ?? 0);
    }
  }
}

/** A table's entry for a character the CanonicalReader must read (an escape, or a character beyond ASCII): no state's complement. */
const ESCAPE = -0x40000000;

/**
 * What a walk of the automaton from its root may skip of a text, for a set of forms: a window is the fewest characters
 * any of them takes, and a character that breaks every form (see breaks) ends any that starts before it in the window.
 */
class Skips {
  /**
   * The ASCII characters none of the forms can hold a unit of: punctuation, spaces and controls of which no form holds
   * the byte, and that start no escape and sit inside none except as what a backslash escapes (`"`, not ; or #). A line
   * break is none: the reader reads it as nothing, so a form may run across it.
   */
  private readonly breaks = new Uint8Array(0x80);
  /**
   * The fewest bytes a form has, when every form is ASCII, since a unit of text that gives one ASCII byte is at least
   * one character long. 0 when some form is not ASCII (a character beyond ASCII gives up to 3 bytes): nothing is skipped.
   */
  readonly window: number;

  constructor(forms: SecretForm[]) {
    const held = new Uint8Array(256);
    for (const form of forms) for (const byte of form.bytes) held[byte] = 1;
    const fewest = forms.reduce((least, form) => Math.min(least, form.bytes.length), Infinity);
    this.window = forms.length === 0 || held.subarray(0x80).includes(1) ? 0 : fewest;
    for (let char = 0; char < 0x80; char += 1) {
      this.breaks[char] = held[char] === 0 && !/[\\%&#;A-Za-z0-9\r\n]/.test(String.fromCharCode(char)) ? 1 : 0;
    }
  }

  /**
   * Where a walk at the root goes on from index: just past the last character of the next window that breaks every
   * form, since none that starts before it can end before it; the end of the text when no window fits; index when
   * nothing in the window breaks a form.
   */
  after(text: string, index: number): number {
    const last = index + this.window - 1;
    if (last >= text.length) return text.length;
    for (let at = last; at >= index; at -= 1) {
      const char = text.charCodeAt(at);
      if (char < 0x80 && this.breaks[char] === 1) return at + 1;
    }
    return index;
  }
}

/** One walk's use of Skips over a text. */
class SkipAhead {
  /** Up to where the last window looked and found nothing that breaks a form. */
  unbroken: number;

  constructor(
    private readonly skips: Skips,
    private readonly text: string,
  ) {
    this.unbroken = skips.window > 0 ? 0 : text.length;
  }

  /** Where a walk at the root goes on from index: past a break (see Skips.after), or index itself. */
  from(index: number): number {
    const after = this.skips.after(this.text, index);
    if (after === index) this.unbroken = index + this.skips.window;
    return after;
  }
}

/** Of two entries of FormAutomaton.screened, the one the screen names: the secret first in SECRET_NAMES. */
const firstNamed = (a: number, b: number): number => (a === 0 ? b : b === 0 ? a : Math.min(a, b));

/** An Aho-Corasick automaton over canonical bytes: one pass over a text finds every form of every token. */
export class FormAutomaton {
  private readonly next = new EdgeTable();
  private fail = new Int32Array(1);
  /**
   * Per state, through the failure chain: the longest form ending there, the secret a screened form ending there
   * leaks (its index in SECRET_NAMES plus one, the lowest when several do; 0 for none), and whether a form is base64.
   */
  longest = new Int32Array(1);
  screened = new Uint8Array(1);
  base64 = new Uint8Array(1);
  private states = 1;
  readonly maxLength: number;
  /**
   * The whole automaton as a table, when it is small enough (one token's is): for each state's row and byte class, the
   * row of the state after it, failure links already followed, so a step is one lookup with no multiplication. Bytes
   * that no form holds share class 0. A row of a state some form ends in is written as its complement (negative), so a
   * step that reaches none costs one comparison; the last column, ESCAPE, is where a character of text must go through
   * the CanonicalReader (see classOfChar).
   */
  private table?: Int32Array;
  private readonly classOf = new Uint16Array(256);
  private classes = 1;
  /** Each ASCII character's column as it stands in a text: its byte's class, upper case folded; a backslash, % and & go to ESCAPE. */
  private readonly classOfChar = new Uint16Array(0x80);
  /** What the screen may skip, looking for screened forms; and what the search for any form may skip. */
  private readonly screenedSkips: Skips;
  private readonly formSkips: Skips;

  /** maxTableEntries: the largest table built (see MAX_TABLE_ENTRIES); 0 steps through the trie, reading every unit. */
  constructor(forms: SecretForm[], maxTableEntries = MAX_TABLE_ENTRIES) {
    const ends: { state: number; form: SecretForm }[] = [];
    for (const form of forms) {
      let state = 0;
      for (const byte of form.bytes) {
        if (this.classOf[byte] === 0) {
          this.classOf[byte] = this.classes;
          this.classes += 1;
        }
        let target = this.next.get(state, byte);
        if (target === undefined) {
          target = this.states;
          this.states += 1;
          this.next.set(state, byte, target);
        }
        state = target;
      }
      ends.push({ state, form });
    }
    this.longest = new Int32Array(this.states);
    this.screened = new Uint8Array(this.states);
    this.base64 = new Uint8Array(this.states);
    let maxLength = 0;
    for (const { state, form } of ends) {
      const length = form.bytes.length;
      maxLength = Math.max(maxLength, length);
      this.longest[state] = Math.max(this.longest[state] ?? 0, length);
      if (form.screened) this.screened[state] = firstNamed(this.screened[state] ?? 0, SECRET_NAMES.indexOf(form.screened) + 1);
      if (form.kind === 'base64') this.base64[state] = 1;
    }
    this.maxLength = maxLength;
    this.screenedSkips = new Skips(forms.filter((form) => form.screened));
    this.formSkips = new Skips(forms);
    this.link(maxTableEntries);
  }

  /** Breadth-first failure links, each state's outputs merged with those of its failure state, and the table if it fits. */
  private link(maxTableEntries: number): void {
    this.fail = new Int32Array(this.states);
    // Each state's children, one run of two typed arrays per state (firstChild[state] up to firstChild[state + 1]).
    const firstChild = new Int32Array(this.states + 1);
    this.next.forEach((state) => (firstChild[state + 1] = (firstChild[state + 1] ?? 0) + 1));
    for (let state = 0; state < this.states; state += 1) firstChild[state + 1] = (firstChild[state + 1] ?? 0) + (firstChild[state] ?? 0);
    const childByte = new Uint8Array(this.next.size);
    const childState = new Int32Array(this.next.size);
    const filled = firstChild.slice(0, this.states);
    this.next.forEach((state, byte, target) => {
      const at = filled[state] ?? 0;
      childByte[at] = byte;
      childState[at] = target;
      filled[state] = at + 1;
    });
    const childrenOf = function* (state: number): Generator<[number, number]> {
      for (let at = firstChild[state] ?? 0; at < (firstChild[state + 1] ?? 0); at += 1) yield [childByte[at] ?? 0, childState[at] ?? 0];
    };
    const width = this.classes + 1;
    // Class 0 (a byte no form holds) stays 0 in every row: back to the root.
    const table = this.states * width <= maxTableEntries ? new Int32Array(this.states * width) : undefined;
    const queue: number[] = [];
    for (const [byte, child] of childrenOf(0)) {
      if (table) table[this.classOf[byte] ?? 0] = child;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] ?? 0;
      for (const [byte, child] of childrenOf(state)) {
        let fallback = this.fail[state] ?? 0;
        while (fallback !== 0 && this.next.get(fallback, byte) === undefined) fallback = this.fail[fallback] ?? 0;
        const linked = this.next.get(fallback, byte);
        const via = linked !== undefined && linked !== child ? linked : 0;
        this.fail[child] = via;
        this.longest[child] = Math.max(this.longest[child] ?? 0, this.longest[via] ?? 0);
        this.screened[child] = firstNamed(this.screened[child] ?? 0, this.screened[via] ?? 0);
        this.base64[child] = Math.max(this.base64[child] ?? 0, this.base64[via] ?? 0);
        queue.push(child);
      }
      if (table) {
        // Breadth first, the failure state's row is complete before this one: start from it, then the state's own moves.
        const fallback = this.fail[state] ?? 0;
        table.copyWithin(state * width, fallback * width, fallback * width + width);
        for (const [byte, child] of childrenOf(state)) table[state * width + (this.classOf[byte] ?? 0)] = child;
      }
    }
    if (table) this.markTable(table, width);
  }

  /** Complements the entries that reach a state some form ends in, fills the ESCAPE column and each character's column. */
  private markTable(table: Int32Array, width: number): void {
    const { longest } = this;
    for (let at = 0; at < table.length; at += 1) {
      const target = table[at] ?? 0;
      table[at] = (at + 1) % width === 0 ? ESCAPE : (longest[target] ?? 0) > 0 ? ~(target * width) : target * width;
    }
    for (let char = 0; char < 0x80; char += 1) {
      this.classOfChar[char] = isPlainAscii(char) ? (this.classOf[char >= 0x41 && char <= 0x5a ? char + 0x20 : char] ?? 0) : width - 1;
    }
    this.table = table;
  }

  /**
   * The first secret a screened form in the text leaks (its index in SECRET_NAMES plus one), or 0: the screen of every
   * file the suite writes, so it walks the text alone, with no note of where each byte began (redacting needs that).
   */
  firstScreened(text: string, reader: CanonicalReader): number {
    return this.firstMarked(text, reader, this.screened, this.screenedSkips);
  }

  /** Whether the text holds any form at all: most texts hold none, and need no redacting pass that notes where each byte began. */
  holdsForm(text: string, reader: CanonicalReader): boolean {
    return this.firstMarked(text, reader, this.longest, this.formSkips) !== 0;
  }

  /** The mark of the first state reached that has one, or 0; from the root, what skips says no marked form starts in is skipped. */
  private firstMarked(text: string, reader: CanonicalReader, marks: Uint8Array | Int32Array, skips: Skips): number {
    // A text shorter than every form (most header values) holds none.
    if (text.length < skips.window) return 0;
    const { table, classOfChar, classOf } = this;
    if (table === undefined) return this.firstMarkedByUnit(text, reader, marks, skips);
    const width = this.classes + 1;
    const { bytes } = reader;
    let row = 0;
    const ahead = new SkipAhead(skips, text);
    for (let index = 0; index < text.length;) {
      const from = row === 0 && index >= ahead.unbroken ? ahead.from(index) : index;
      if (from !== index) {
        index = from;
        continue;
      }
      const char = text.charCodeAt(index);
      // Most of a file is plain ASCII that ends no form: one lookup and one comparison a character.
      const next = char < 0x80 ? (table[row + (classOfChar[char] ?? 0)] ?? 0) : ESCAPE;
      if (next >= 0) {
        row = next;
        index += 1;
        continue;
      }
      if (next !== ESCAPE) {
        row = ~next;
        index += 1;
        const mark = marks[row / width] ?? 0;
        if (mark !== 0) return mark;
        continue;
      }
      index = reader.read(text, index);
      for (let unit = 0; unit < reader.count; unit += 1) {
        const reached = table[row + (classOf[bytes[unit] ?? 0] ?? 0)] ?? 0;
        row = reached < 0 ? ~reached : reached;
        const mark = marks[row / width] ?? 0;
        if (mark !== 0) return mark;
      }
    }
    return 0;
  }

  /** firstMarked for an automaton too large for a table: every unit of the text read, and stepped through the trie. */
  private firstMarkedByUnit(text: string, reader: CanonicalReader, marks: Uint8Array | Int32Array, skips: Skips): number {
    const { bytes } = reader;
    let state = 0;
    const ahead = new SkipAhead(skips, text);
    for (let index = 0; index < text.length;) {
      if (state === 0 && index >= ahead.unbroken) index = ahead.from(index);
      if (index === text.length) break;
      index = reader.read(text, index);
      for (let unit = 0; unit < reader.count; unit += 1) {
        state = this.step(state, bytes[unit] ?? 0);
        if (marks[state] !== 0) return marks[state] ?? 0;
      }
    }
    return 0;
  }

  step(state: number, byte: number): number {
    if (this.table) {
      const width = this.classes + 1;
      const reached = this.table[state * width + (this.classOf[byte] ?? 0)] ?? 0;
      return (reached < 0 ? ~reached : reached) / width;
    }
    for (let current = state; ; current = this.fail[current] ?? 0) {
      const target = this.next.get(current, byte);
      if (target !== undefined) return target;
      if (current === 0) return 0;
    }
  }
}
