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
   * The whole automaton as a table, when it is small enough (one token's is): the state after each state and byte
   * class, failure links already followed, so a step is one lookup. Bytes that no form holds share class 0.
   */
  private table?: Int32Array;
  private readonly classOf = new Uint16Array(256);
  private classes = 1;

  constructor(forms: SecretForm[]) {
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
    this.link();
  }

  /** Breadth-first failure links, each state's outputs merged with those of its failure state, and the table if it fits. */
  private link(): void {
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
    const width = this.classes;
    // Class 0 (a byte no form holds) stays 0 in every row: back to the root.
    const table = this.states * width <= MAX_TABLE_ENTRIES ? new Int32Array(this.states * width) : undefined;
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
    this.table = table;
  }

  /**
   * The first secret a screened form in the text leaks (its index in SECRET_NAMES plus one), or 0: the screen of every
   * file the suite writes, so it walks the text alone, with no note of where each byte began (redacting needs that).
   */
  firstScreened(text: string, reader: CanonicalReader): number {
    return this.firstMarked(text, reader, this.screened);
  }

  /** Whether the text holds any form at all: most texts hold none, and need no redacting pass that notes where each byte began. */
  holdsForm(text: string, reader: CanonicalReader): boolean {
    return this.firstMarked(text, reader, this.longest) !== 0;
  }

  /** The mark of the first state reached that has one, or 0. */
  private firstMarked(text: string, reader: CanonicalReader, marks: Uint8Array | Int32Array): number {
    const { table, classOf, classes } = this;
    const { bytes } = reader;
    let state = 0;
    for (let index = 0; index < text.length;) {
      const char = text.charCodeAt(index);
      // Most of a file is plain ASCII, stepped here through the table without a call.
      if (table !== undefined && isPlainAscii(char)) {
        index += 1;
        state = table[state * classes + (classOf[char >= 0x41 && char <= 0x5a ? char + 0x20 : char] ?? 0)] ?? 0;
        if (marks[state] !== 0) return marks[state] ?? 0;
        continue;
      }
      index = reader.read(text, index);
      for (let unit = 0; unit < reader.count; unit += 1) {
        state = this.step(state, bytes[unit] ?? 0);
        if (marks[state] !== 0) return marks[state] ?? 0;
      }
    }
    return 0;
  }

  step(state: number, byte: number): number {
    if (this.table) return this.table[state * this.classes + (this.classOf[byte] ?? 0)] ?? 0;
    for (let current = state; ; current = this.fail[current] ?? 0) {
      const target = this.next.get(current, byte);
      if (target !== undefined) return target;
      if (current === 0) return 0;
    }
  }
}
