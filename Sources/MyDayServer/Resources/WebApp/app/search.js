// Search of the device's own copy, by the server's rules (Sources/MyDaySearch), for when the server cannot be
// reached: words are prefixes of words, "quoted phrases" are words in a row, case and accents never count, filler
// words of a question are left out when other words remain, date phrases ("last week", "in May", "3 days ago",
// "last weekend", "on Sunday", "last May") filter by day.
// Answers have the shape of GET /v1/search's, so the Library draws both the same way.

import { localDay } from "./ui.js";

// A word is a run of letters, digits and combining marks (SearchText.isWordScalar).
const WORD = /[\p{Alphabetic}\p{M}\p{N}\p{Co}]+/gu;
const QUOTES = new Set(['"', "“", "”", "„", "«", "»"]);

/** Words that only shape a question (SearchQuery.questionWords); a search made of nothing else keeps them. */
export const QUESTION_WORDS = new Set([
  "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "about", "from", "by", "i", "me",
  "my", "we", "us", "our", "you", "your", "it", "its", "is", "was", "were", "are", "be", "been", "am", "do", "did",
  "does", "what", "when", "where", "which", "who", "how", "why", "that", "there", "have", "has", "had",
  // What is left of contractions ("it's", "don't", "I'll").
  "s", "t", "d", "ll", "re", "ve", "m",
]);

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** Lower case without diacritics ("Café" is "cafe"). */
export function fold(word) {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The words of `text`, folded, with where each stands (UTF-16 offsets, as JavaScript strings count). */
export function tokens(text) {
  return [...text.matchAll(WORD)].map((match) => ({ folded: fold(match[0]), start: match.index, end: match.index + match[0].length }));
}

function lowercasedWords(text) {
  return [...text.matchAll(WORD)].map((match) => match[0].toLowerCase());
}

/**
 * How the server reads `text` (SearchQuery): `{ terms, datePhrase, from, to }`, each term `{ word }` or
 * `{ phrase: [words] }`. Date phrases are read only when `today` (YYYY-MM-DD, the person's day) is given.
 */
export function parseQuery(text, today = null) {
  const phrases = [];
  let loose = "";
  let quoted = null;
  for (const character of text) {
    if (QUOTES.has(character)) {
      if (quoted !== null) {
        const words = lowercasedWords(quoted);
        if (words.length > 0) phrases.push(words);
        quoted = null;
      } else {
        quoted = "";
      }
      loose += " ";
    } else if (quoted !== null) {
      quoted += character;
    } else {
      loose += character;
    }
  }
  // A quote left open: what follows it is read as loose words.
  if (quoted !== null) loose += ` ${quoted}`;

  let words = lowercasedWords(loose);
  let dates = null;
  let datePhrase = null;
  const found = today ? firstDatePhrase(words.map(fold), today) : null;
  if (found) {
    dates = found.range;
    datePhrase = words.slice(found.at, found.at + found.length).join(" ");
    words.splice(found.at, found.length);
  }
  const meaningful = words.filter((word) => !QUESTION_WORDS.has(fold(word)));
  if (meaningful.length > 0 || phrases.length > 0 || dates) words = meaningful;
  const seen = new Set();
  const terms = [
    ...words.filter((word) => !seen.has(word) && seen.add(word)).map((word) => ({ word })),
    ...phrases.map((phrase) => (phrase.length === 1 ? { word: phrase[0] } : { phrase })),
  ];
  return { terms, datePhrase, from: dates?.from ?? null, to: dates?.to ?? null };
}

/** The first date phrase in `words` (folded), as DatePhrases reads it: its range of days and where it stands. */
function firstDatePhrase(words, today) {
  for (let at = 0; at < words.length; at++) {
    for (const length of [3, 2, 1]) {
      if (at + length > words.length) continue;
      const range = readDates(words.slice(at, at + length), today);
      if (range) return { range, at, length };
    }
  }
  return null;
}

function day(year, month, date) {
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10);
}

function readDates(words, today) {
  const [year, month, date] = today.split("-").map(Number);
  const monthRange = (m, y) => ({ from: day(y, m, 1), to: day(y, m + 1, 0) });
  const yearRange = (y) => ({ from: day(y, 1, 1), to: day(y, 12, 31) });
  const week = (before) => {
    const weekday = (new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7; // Monday 0
    const monday = date - weekday - 7 * before;
    return { from: day(year, month, monday), to: day(year, month, monday + 6) };
  };
  const weekend = (before) => {
    const { from } = week(before);
    const [y, m, d] = from.split("-").map(Number);
    return { from: day(y, m, d + 5), to: day(y, m, d + 6) };
  };
  const key = words.join(" ");
  switch (key) {
    case "today": return { from: today, to: today };
    case "yesterday": return { from: day(year, month, date - 1), to: day(year, month, date - 1) };
    case "this week": return week(0);
    case "last week": return week(1);
    case "this month": return monthRange(month, year);
    case "last month": return month === 1 ? monthRange(12, year - 1) : monthRange(month - 1, year);
    case "this year": return yearRange(year);
    case "last year": return yearRange(year - 1);
    case "this weekend": return weekend(0);
    case "last weekend": return weekend(1);
  }
  const single = (back) => ({ from: day(year, month, date - back), to: day(year, month, date - back) });
  if (words.length === 3 && words[2] === "ago") {
    const count = countNamed(words[0]);
    if (!count) return null;
    if (words[1] === "days" || (words[1] === "day" && count === 1)) return single(count);
    if (words[1] === "weeks" || (words[1] === "week" && count === 1)) return week(count);
    return null;
  }
  if (words.length === 2 && (words[0] === "on" || words[0] === "last")) {
    const weekday = WEEKDAYS.indexOf(words[1]);
    if (weekday >= 0) {
      // "on Sunday": the latest Sunday up to today; "last Sunday": the latest before today.
      const today0 = (new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7;
      let back = (today0 - weekday + 7) % 7;
      if (back === 0 && words[0] === "last") back = 7;
      return single(back);
    }
    // "last May": the latest May that has ended.
    const named = words[0] === "last" ? monthNamed(words[1]) : null;
    return named ? monthRange(named, named < month ? year : year - 1) : null;
  }
  if (words[0] !== "in") return null;
  if (words.length === 2) {
    const named = monthNamed(words[1]);
    // The latest such month that has begun: "in May" in March means last year's May.
    if (named) return monthRange(named, named <= month ? year : year - 1);
    const whole = yearNamed(words[1]);
    return whole ? yearRange(whole) : null;
  }
  if (words.length === 3) {
    const named = monthNamed(words[1]);
    const whole = yearNamed(words[2]);
    return named && whole ? monthRange(named, whole) : null;
  }
  return null;
}

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const COUNTS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** "3" or "three", as DatePhrases reads a count: 1 to 3660. */
function countNamed(word) {
  const index = COUNTS.indexOf(word);
  if (index >= 0) return index + 1;
  if (!/^[0-9]{1,4}$/.test(word)) return null;
  const number = Number(word);
  return number >= 1 && number <= 3660 ? number : null;
}

function monthNamed(word) {
  const index = MONTHS.indexOf(word);
  if (index >= 0) return index + 1;
  if (word.length !== 3 && word !== "sept") return null;
  const prefixed = MONTHS.findIndex((name) => name.startsWith(word));
  return prefixed >= 0 ? prefixed + 1 : null;
}

function yearNamed(word) {
  if (!/^[0-9]{4}$/.test(word)) return null;
  const year = Number(word);
  return year >= 1900 && year <= 2999 ? year : null;
}

/** Where a query's terms are in texts, by the rules the server's index and Highlighter use. */
export class Highlighter {
  constructor(terms) {
    this.words = terms.filter((term) => term.word !== undefined).map((term) => fold(term.word));
    this.phrases = terms.filter((term) => term.phrase).map((term) => term.phrase.map(fold));
  }

  /** The matched tokens of `list` in order: `[{ index, term }]`. */
  matched(list) {
    const found = new Map();
    list.forEach((token, index) => {
      const term = this.words.findIndex((word) => token.folded.startsWith(word));
      if (term >= 0) found.set(index, term);
    });
    this.phrases.forEach((phrase, offset) => {
      for (let start = 0; phrase.length > 0 && start + phrase.length <= list.length; start++) {
        if (phrase.every((word, i) => list[start + i].folded === word)) {
          for (let i = start; i < start + phrase.length; i++) found.set(i, this.words.length + offset);
        }
      }
    });
    return [...found].sort((a, b) => a[0] - b[0]).map(([index, term]) => ({ index, term }));
  }

  /** Whether every term is in one of `texts`: each word begins a word of one, each phrase is in a row in one. */
  allIn(texts) {
    const lists = texts.map((text) => tokens(text ?? ""));
    const has = (test) => lists.some((list) => list.some((_, index) => test(list, index)));
    return this.words.every((word) => has((list, index) => list[index].folded.startsWith(word)))
      && this.phrases.every((phrase) => has((list, start) => start + phrase.length <= list.length
        && phrase.every((word, i) => list[start + i].folded === word)));
  }

  /** The whole text with its matches marked; null when nothing in it matched. */
  marked(text) {
    const list = tokens(text);
    const found = this.matched(list);
    if (found.length === 0) return null;
    return { text, matches: found.map(({ index }) => ({ start: list[index].start, length: list[index].end - list[index].start })) };
  }

  /** A passage of at most `maxWords` words around where the most different terms match, cut ends marked "…". */
  snippet(text, maxWords = 32) {
    const list = tokens(text);
    const found = this.matched(list);
    if (found.length === 0) return null;
    let best = { start: found[0].index, terms: 0 };
    for (const candidate of found) {
      const end = candidate.index + maxWords;
      const terms = new Set(found.filter((m) => m.index >= candidate.index && m.index < end).map((m) => m.term)).size;
      if (terms > best.terms) best = { start: candidate.index, terms };
    }
    const lead = Math.min(6, best.start, Math.floor(maxWords / 4));
    const startToken = best.start - lead;
    const endToken = Math.min(list.length, startToken + maxWords) - 1;
    const from = startToken === 0 ? 0 : list[startToken].start;
    const to = endToken === list.length - 1 ? text.length : list[endToken].end;
    const prefix = from > 0 ? "…" : "";
    const suffix = to < text.length ? "…" : "";
    const shift = prefix.length - from;
    const matches = found.map(({ index }) => list[index])
      .filter((token) => token.start >= from && token.end <= to)
      .map((token) => ({ start: token.start + shift, length: token.end - token.start }));
    return { text: prefix + text.slice(from, to) + suffix, matches };
  }
}

/** Every word of a plain query in the entry (kept for callers of the old offline search). */
export function entryMatches(entry, query) {
  return new Highlighter(parseQuery(query).terms).allIn(fields(entry));
}

function fields(entry) {
  return [entry.title, (entry.tags ?? []).join(", "), entry.transcript_clean];
}

/**
 * GET /v1/search over `entries` (the device's copy): `{ q, tz, readDates, tags, moods, kind, from, to, cursor, limit }`
 * in, `{ hits, has_more, next_cursor, interpreted }` out. Hits come best first: matches in the title count most, then
 * tags, then the transcript; ties (and searches without words) newest first.
 */
export function searchEntries(entries, { q = "", tz, readDates = true, tags = [], moods = [], kind = null, from = null, to = null, cursor = null, limit = 20 }) {
  const query = parseQuery(q, readDates ? localDay(new Date(), tz) : null);
  const highlighter = new Highlighter(query.terms);
  const wanted = tags.map((tag) => tag.trim().toLowerCase());
  const ranges = [[from, to], [query.from, query.to]];
  const scored = [];
  for (const entry of entries) {
    if (kind && entry.kind !== kind) continue;
    if (moods.length > 0 && !moods.includes(entry.mood)) continue;
    const own = (entry.tags ?? []).map((tag) => tag.toLowerCase());
    if (!wanted.every((tag) => own.includes(tag))) continue;
    const entryDay = localDay(new Date(entry.created_at), entry.tz || undefined);
    if (ranges.some(([first, last]) => (first && entryDay < first) || (last && entryDay > last))) continue;
    if (!highlighter.allIn(fields(entry))) continue;
    const [title, tagText, text] = fields(entry);
    let score = 0;
    for (const [weight, field] of [[4, title], [2, tagText], [1, text]]) score += weight * highlighter.matched(tokens(field ?? "")).length;
    scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || b.entry.created_at.localeCompare(a.entry.created_at) || String(b.entry.id).localeCompare(String(a.entry.id)));
  const offset = Number(cursor) || 0;
  const page = scored.slice(offset, offset + limit);
  const hasMore = scored.length > offset + limit;
  const hits = page.map(({ entry }) => {
    const [title, tagText, text] = fields(entry);
    const highlights = [];
    const add = (field, highlight) => highlight && highlights.push({ field, ...highlight });
    if (query.terms.length > 0) {
      if (title) add("title", highlighter.marked(title));
      if (tagText) add("tags", highlighter.marked(tagText));
      if (text) add("text", highlighter.snippet(text));
    }
    return { entry, highlights };
  });
  const interpreted = {
    words: query.terms.filter((term) => term.word !== undefined).map((term) => term.word),
    phrases: query.terms.filter((term) => term.phrase).map((term) => term.phrase),
  };
  if (query.datePhrase) Object.assign(interpreted, { date_phrase: query.datePhrase, from: query.from, to: query.to });
  return { hits, has_more: hasMore, next_cursor: hasMore ? String(offset + limit) : undefined, interpreted };
}
