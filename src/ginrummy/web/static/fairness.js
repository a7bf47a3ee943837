// Provably fair deals, checked in the browser: docs/fairness.md in JavaScript.
//
// A plain ES module with no dependencies. SHA-256 comes from crypto.subtle where the page is
// a secure context (https, localhost) and from the small pure-JS implementation below where it
// is not (plain http on a LAN address), so the check works everywhere.
//
//   sha256Hex(text)              hex SHA-256 of the UTF-8 bytes of text
//   shuffledDeck(seed)           the 52 cards of Python ginrummy.cards.shuffled_deck(seed)
//   dealFromDeck(deck, dealer)   {hands: [seat 0, seat 1], upcard, stock}
//   verifyHand(record, options)  {ok, checks: [{name, ok, detail}], deal, finalHands}

const RANKS = "A23456789TJQK";
const SUITS = "shdc";
const SUIT_ALIASES = {
  s: 0, h: 1, d: 2, c: 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3,
};
/** Card names by index: As 2s .. Ks Ah .. Kc (the deck in index order). */
export const CARD_NAMES = Object.freeze(
  Array.from({ length: 52 }, (_, i) => RANKS[i % 13] + SUITS[Math.floor(i / 13)]),
);
const SHUFFLE_DOMAIN = "ginrummy-shuffle-v1";
const utf8 = new TextEncoder();

// --- SHA-256 --------------------------------------------------------------------------------

const K = Uint32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);

const ror = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of some bytes in pure JavaScript (FIPS 180-4); a Uint8Array of 32 bytes. */
export function _sha256Fallback(bytes) {
  const n = bytes.length;
  const total = Math.ceil((n + 9) / 64) * 64;
  const buf = new Uint8Array(total);
  buf.set(bytes);
  buf[n] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(total - 8, Math.floor(n / 0x20000000)); // bit length, high word
  view.setUint32(total - 4, (n * 8) >>> 0); // bit length, low word
  const H = Uint32Array.of(
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  );
  const W = new Uint32Array(64);
  for (let off = 0; off < total; off += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const x = W[t - 15];
      const y = W[t - 2];
      const s0 = ror(x, 7) ^ ror(x, 18) ^ (x >>> 3);
      const s1 = ror(y, 17) ^ ror(y, 19) ^ (y >>> 10);
      W[t] = W[t - 16] + s0 + W[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, H[i]);
  return out;
}

/** SHA-256 of some bytes: crypto.subtle when the page has it, else the pure-JS code. */
async function sha256Bytes(bytes) {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return _sha256Fallback(bytes);
}

const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** Hex SHA-256 of the UTF-8 bytes of text (crypto.subtle, or the pure-JS fallback). */
export async function sha256Hex(text) {
  return toHex(await sha256Bytes(utf8.encode(String(text))));
}

/** Hex SHA-256 of the UTF-8 bytes of text, always by the pure-JS code (for tests). */
export function _sha256HexFallback(text) {
  return toHex(_sha256Fallback(utf8.encode(String(text))));
}

// --- the shuffle and the deal -------------------------------------------------------------

/** The deck order produced by seed (a string, UTF-8 encoded, or bytes), top first: the same
 * 52 card names as Python ginrummy.cards.shuffled_deck(seed). See docs/fairness.md. */
export async function shuffledDeck(seed) {
  const seedBytes = typeof seed === "string" ? utf8.encode(seed) : new Uint8Array(seed);
  const domain = utf8.encode(SHUFFLE_DOMAIN);
  const message = new Uint8Array(domain.length + seedBytes.length + 8);
  message.set(domain);
  message.set(seedBytes, domain.length);
  const counterAt = domain.length + seedBytes.length;
  const words = [];
  let blocks = 0;
  const more = async () => {
    // 7 blocks give 56 words; 51 are needed unless a (very rare) rejection happens
    const digests = [];
    for (let k = 0; k < 7; k++) {
      const block = message.slice();
      const view = new DataView(block.buffer);
      view.setUint32(counterAt, Math.floor((blocks + k) / 0x100000000));
      view.setUint32(counterAt + 4, (blocks + k) >>> 0);
      digests.push(sha256Bytes(block));
    }
    blocks += 7;
    for (const digest of await Promise.all(digests)) {
      const view = new DataView(digest.buffer, digest.byteOffset, 32);
      for (let i = 0; i < 8; i++) words.push(view.getUint32(4 * i));
    }
  };
  const order = Array.from({ length: 52 }, (_, i) => i);
  let pos = 0;
  for (let i = 51; i > 0; i--) {
    const bound = i + 1;
    const limit = 0x100000000 - (0x100000000 % bound);
    let word;
    do {
      if (pos === words.length) await more();
      word = words[pos++];
    } while (word >= limit);
    const j = word % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((c) => CARD_NAMES[c]);
}

/**
 * The cut that chose a game's first dealer, as the engine makes it
 * (ginrummy.engine.game.cut_cards): each seat cuts a card from a deck shuffled by the game's
 * id + "/cut" (seat 0 the first card, seat 1 the second), the higher rank deals, equal ranks
 * cut again with the next two. The game id is public and the cut has its own deck, so the
 * page works it out itself, and so checks the dealer the server chose.
 * Returns {cards: [[seat 0's, seat 1's], ...], dealer}.
 */
export async function cutCards(gameId) {
  const deck = await shuffledDeck(`${gameId}/cut`);
  const rank = (card) => "A23456789TJQK".indexOf(card[0]);
  const cards = [];
  for (let i = 0; i < 52; i += 2) {
    cards.push([deck[i], deck[i + 1]]);
    if (rank(deck[i]) !== rank(deck[i + 1])) break;
  }
  const [a, b] = cards[cards.length - 1];
  return { cards, dealer: rank(a) > rank(b) ? 0 : 1 };
}

/** Deal from a deck (52 cards top first, an array or a space-separated string): the non-dealer
 * gets positions 0, 2, .. 18, the dealer 1, 3, .. 19; 20 is the upcard, 21.. the stock. */
export function dealFromDeck(deck, dealer) {
  const cards = typeof deck === "string" ? deck.trim().split(/\s+/) : Array.from(deck);
  const nonDealer = cards.filter((_, i) => i < 20 && i % 2 === 0);
  const dealers = cards.filter((_, i) => i < 20 && i % 2 === 1);
  return {
    hands: dealer === 0 ? [dealers, nonDealer] : [nonDealer, dealers],
    upcard: cards[20],
    stock: cards.slice(21),
  };
}

// --- checking a hand ----------------------------------------------------------------------

/** A card's canonical name ("Th") from any spelling Python accepts ("10h", "td", "T♥"), or
 * null when the token is not a card. */
function cardName(token) {
  if (typeof token !== "string") return null;
  const text = token.trim();
  if (text.length < 2) return null;
  const suitText = text.slice(-1);
  let rankText = text.slice(0, -1).toUpperCase();
  if (rankText === "10") rankText = "T";
  const suit = SUIT_ALIASES[suitText.toLowerCase()] ?? SUIT_ALIASES[suitText];
  const rank = rankText.length === 1 ? RANKS.indexOf(rankText) : -1;
  if (suit === undefined || rank < 0) return null;
  return RANKS[rank] + SUITS[suit];
}

/** Cards from an array or a space/comma separated string; throws on a bad card. */
function parseCards(value, what) {
  const tokens = typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : value;
  if (!Array.isArray(tokens)) throw new Error(`${what} is not a list of cards`);
  return tokens.map((token) => {
    const name = cardName(token);
    if (name === null) throw new Error(`${what}: ${JSON.stringify(token)} is not a card`);
    return name;
  });
}

/** What differs between two collections of cards, compared as sets ("" when equal). */
function setDifference(expected, actual, expectedLabel, actualLabel) {
  const e = new Set(expected);
  const a = new Set(actual);
  const onlyE = [...e].filter((c) => !a.has(c));
  const onlyA = [...a].filter((c) => !e.has(c));
  if (!onlyE.length && !onlyA.length && e.size === expected.length && a.size === actual.length) {
    return "";
  }
  const parts = [];
  if (onlyE.length) parts.push(`${expectedLabel} ${onlyE.join(" ")}`);
  if (onlyA.length) parts.push(`${actualLabel} ${onlyA.join(" ")}`);
  if (!parts.length) parts.push("a card is listed twice");
  return parts.join("; ");
}

/** Replay a hand's actions on its deal: every card drawn must come from the top of the stock
 * or the discard pile, every card discarded from the hand of the seat to act. Returns
 * {error, hands, over, last: {seat, kind, card}} (error null when it all fits). */
/**
 * Replay ``actions`` on ``deck`` by the engine's rules; returns the final hands and an
 * ``error`` naming the first action that does not fit (null when all do). ``onStep``, when
 * given, sees the position after every accepted action: ``{seat, action, hands, pile, stock}``
 * (the replay page steps through these).
 */
export function replayActions(deck, dealer, actions, onStep = null) {
  const deal = dealFromDeck(deck, dealer);
  const hands = [new Set(deal.hands[0]), new Set(deal.hands[1])];
  const pile = [deal.upcard];
  let stockPos = 21;
  let phase = "upcard-offer";
  let toAct = 1 - dealer;
  let taken = null;
  let lastTurn = false;
  let last = null;
  const state = () => ({ hands: [[...hands[0]], [...hands[1]]], over: phase === "over", last });
  const step = (seat, action) => onStep && onStep({
    seat, action, hands: [[...hands[0]], [...hands[1]]], pile: pile.slice(), stock: 52 - stockPos,
  });
  for (let n = 0; n < actions.length; n++) {
    const text = actions[n];
    const fail = (why) => ({ ...state(), error: `action ${n + 1} "${text}" (seat ${toAct}): ${why}` });
    const words = typeof text === "string" ? text.trim().toLowerCase().split(/\s+/) : [];
    const kind = words[0];
    const withCard = kind === "discard" || kind === "knock" || kind === "gin";
    if (!["take", "pass", "stock", "pile", "big-gin"].includes(kind) && !withCard) {
      return fail("not an action");
    }
    if (words.length !== (withCard ? 2 : 1)) return fail("not an action");
    if (phase === "over") return fail("the hand is already over");
    const seat = toAct;
    const hand = hands[seat];
    if (kind === "take" || kind === "pass") {
      if (phase !== "upcard-offer" && phase !== "upcard-dealer") {
        return fail("the upcard can only be taken or passed at the start");
      }
      if (kind === "pass") {
        if (phase === "upcard-offer") {
          phase = "upcard-dealer";
          toAct = dealer;
        } else {
          phase = "first-draw";
          toAct = 1 - dealer;
        }
        last = { seat, kind, card: null };
        step(seat, text);
        continue;
      }
    } else if (kind === "stock" || kind === "pile") {
      if (phase !== "draw" && !(phase === "first-draw" && kind === "stock")) {
        return fail(`not a time to draw from the ${kind}`);
      }
    } else if (phase !== "discard") {
      return fail("not a time to discard");
    }
    if (kind === "take" || kind === "pile") {
      if (!pile.length) return fail("the discard pile is empty");
      const card = pile.pop();
      hand.add(card);
      taken = card;
      phase = "discard";
      last = { seat, kind, card };
    } else if (kind === "stock") {
      if (stockPos >= 52) return fail("the stock is empty");
      const card = deck[stockPos++];
      hand.add(card);
      taken = null;
      lastTurn = 52 - stockPos === 2;
      phase = "discard";
      last = { seat, kind, card };
    } else if (kind === "big-gin") {
      if (hand.size !== 11) return fail(`Big Gin needs 11 cards, seat ${seat} has ${hand.size}`);
      phase = "over";
      toAct = null;
      last = { seat, kind, card: null };
    } else {
      const card = cardName(words[1]);
      if (card === null) return fail("not a card");
      if (!hand.has(card)) return fail(`${card} is not in seat ${seat}'s hand`);
      if (card === taken) return fail(`${card} was taken from the pile this turn`);
      hand.delete(card);
      pile.push(card);
      last = { seat, kind, card };
      if (kind === "discard" && !lastTurn) {
        phase = "draw";
        toAct = 1 - seat;
      } else {
        phase = "over";
        toAct = null;
      }
    }
    step(seat, text);
  }
  return { ...state(), error: null };
}

/** The result kinds an ending action can give. */
const KINDS_AFTER = { knock: ["knock", "undercut"], gin: ["gin"], "big-gin": ["big-gin"] };

function checkResult(result, replay) {
  if (result === null || result === undefined) {
    return replay.over
      ? { ok: false, detail: "the actions end the hand but no result is recorded" }
      : { ok: true, detail: "the hand is not over" };
  }
  if (!replay.over) return { ok: false, detail: "a result is recorded but the actions stop early" };
  const last = replay.last;
  const expected = KINDS_AFTER[last.kind] ?? ["void"];
  if (result.kind !== undefined && !expected.includes(result.kind)) {
    return { ok: false, detail: `result is ${result.kind}, but the hand ends with "${last.kind}"` };
  }
  if (result.knocker !== undefined && result.knocker !== (expected[0] === "void" ? null : last.seat)) {
    return { ok: false, detail: `result names seat ${result.knocker} as knocker` };
  }
  if (!Array.isArray(result.hands)) {
    return { ok: true, detail: "the hand ends as recorded (the result lists no hands to compare)" };
  }
  for (const seat of [0, 1]) {
    let shown;
    try {
      shown = parseCards(result.hands[seat] ?? [], `result hand of seat ${seat}`);
    } catch (err) {
      return { ok: false, detail: err.message };
    }
    const diff = setDifference(replay.hands[seat], shown, "replay has", "result has");
    if (diff) return { ok: false, detail: `seat ${seat}: ${diff}` };
  }
  return { ok: true, detail: "both final hands match the result" };
}

/** Check one hand of a game record (an entry of record["hands"], docs/fairness.md).
 *
 * options (all optional): seat (0 or 1), seenCommitment (the commitment shown before the
 * deal), seenHand (the ten cards seat was dealt, as the browser saw them).
 *
 * Returns {ok, checks: [{name, ok, detail}], deal, finalHands}; check names: commitment,
 * seen-commitment, deck, seen-hand, replay, result (seen-* only when given). Never throws. */
export async function verifyHand(handRecord, options = {}) {
  const checks = [];
  const add = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });
  const rec = handRecord && typeof handRecord === "object" ? handRecord : {};
  const { seat, seenCommitment, seenHand } = options ?? {};
  const seed = typeof rec.seed === "string" ? rec.seed : null;
  const committed = typeof rec.commitment === "string" ? rec.commitment.toLowerCase() : null;

  let seedHash = null;
  if (seed === null) {
    add("commitment", false, "no seed has been revealed");
  } else {
    seedHash = await sha256Hex(seed);
    if (committed === null) add("commitment", false, "the record has no commitment");
    else if (seedHash !== committed) add("commitment", false, "SHA-256 of the seed is not the commitment");
    else add("commitment", true, "SHA-256 of the seed is the commitment");
  }
  if (seenCommitment !== undefined && seenCommitment !== null) {
    // the commitment this record stands on: its own, or else the seed's hash
    const target = committed ?? seedHash;
    if (target === null) add("seen-commitment", false, "no commitment or seed to compare with");
    else if (target !== String(seenCommitment).toLowerCase()) {
      add("seen-commitment", false, "the record's commitment is not the one shown before the deal");
    } else add("seen-commitment", true, "the commitment is the one shown before the deal");
  }

  let deck = null;
  let deckProblem = null;
  try {
    deck = parseCards(rec.deck ?? "", "deck");
    if (deck.length !== 52 || new Set(deck).size !== 52) {
      deckProblem = `the deck has ${deck.length} cards (${new Set(deck).size} different), not 52`;
      deck = null;
    }
  } catch (err) {
    deckProblem = err.message;
    deck = null;
  }
  const dealer = rec.dealer;
  if (deck !== null && dealer !== 0 && dealer !== 1) {
    deckProblem = `dealer must be seat 0 or 1, not ${JSON.stringify(dealer)}`;
    deck = null;
  }
  if (deckProblem !== null) {
    add("deck", false, deckProblem);
  } else if (seed === null) {
    add("deck", false, "no seed to shuffle with");
  } else {
    const shuffled = await shuffledDeck(seed);
    const at = shuffled.findIndex((card, i) => card !== deck[i]);
    if (at < 0) add("deck", true, "the seed's shuffle gives the recorded deck");
    else add("deck", false, `the seed's shuffle differs from the recorded deck at position ${at} (${shuffled[at]}, not ${deck[at]})`);
  }

  const deal = deck === null ? null : dealFromDeck(deck, dealer);
  if (seenHand !== undefined && seenHand !== null) {
    if (seat !== 0 && seat !== 1) {
      add("seen-hand", false, "the seat of the seen hand is not given");
    } else if (deal === null) {
      add("seen-hand", false, "no valid deck to compare with");
    } else {
      let seen = null;
      try {
        seen = parseCards(seenHand, "seen hand");
      } catch (err) {
        add("seen-hand", false, err.message);
      }
      if (seen !== null) {
        const diff = setDifference(deal.hands[seat], seen, "deck deals", "you saw");
        if (diff) add("seen-hand", false, `seat ${seat}: ${diff}`);
        else add("seen-hand", true, `seat ${seat} was dealt the ten cards you saw`);
      }
    }
  }

  let finalHands = null;
  if (deck === null) {
    add("replay", false, "no valid deck to replay");
  } else if (!Array.isArray(rec.actions)) {
    add("replay", false, "the record has no list of actions");
  } else {
    const replay = replayActions(deck, dealer, rec.actions);
    finalHands = replay.hands;
    if (replay.error !== null) {
      add("replay", false, replay.error);
    } else {
      add("replay", true, `${rec.actions.length} actions, every card from where it should be`);
      const verdict = checkResult(rec.result, replay);
      add("result", verdict.ok, verdict.detail);
    }
  }
  return { ok: checks.every((c) => c.ok), checks, deal, finalHands };
}
