import { call } from "../api.js";
import { counted, el, fromTemplate, readForScreen } from "../ui.js";

const SVG = "http://www.w3.org/2000/svg";
const DAY_MS = 86400000;

/** An SVG element with attributes, and a <title> when `title` is given (read by screen readers, shown on hover). */
function svg(tag, attributes = {}, title) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (title) {
    const label = document.createElementNS(SVG, "title");
    label.textContent = title;
    node.append(label);
  }
  return node;
}

/** SVG text that screen readers skip (the chart's title and description say it). */
function label(x, y, text) {
  const node = svg("text", { x, y, "aria-hidden": "true" });
  node.textContent = text;
  return node;
}

/** A day `YYYY-MM-DD` as UTC milliseconds, and back. */
const time = (date) => Date.parse(`${date}T00:00:00Z`);
const iso = (ms) => new Date(ms).toISOString().slice(0, 10);
/** The Monday on or before a day. */
const monday = (ms) => ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;
const longDate = (date) => new Intl.DateTimeFormat(undefined, { timeZone: "UTC", dateStyle: "long" }).format(new Date(time(date) + DAY_MS / 2));

/** "12 March 2026: 2 entries, 4 minutes recorded, mood 4 of 5". */
function dayLabel(date, day) {
  if (!day) return `${longDate(date)}: no entry`;
  const parts = [counted(day.entries, "entry", "entries")];
  const minutes = Math.round(day.seconds / 60);
  if (day.seconds > 0) parts.push(`${counted(minutes, "minute", "minutes")} recorded`);
  if (day.mood) parts.push(`mood ${day.mood} of 5`);
  return `${longDate(date)}: ${parts.join(", ")}`;
}

/** Columns of weeks (Monday on top), one square per day; the square's size, not only its colour, says how many entries. */
function calendar(insights, byDate) {
  const first = monday(time(insights.from));
  const last = time(insights.to);
  const weeks = Math.floor((last - first) / DAY_MS / 7) + 1;
  const cell = 12;
  // Drawn at its own size (about 660 px for a year): a phone scrolls it sideways, newest days in view first.
  const chart = svg("svg", {
    viewBox: `0 0 ${weeks * cell + 24} ${7 * cell + 4}`, width: weeks * cell + 24, height: 7 * cell + 4, role: "img",
    "aria-labelledby": "calendar-heading calendar-summary",
  });
  const summary = svg("desc", { id: "calendar-summary" });
  summary.textContent = `${counted(insights.days.length, "day", "days")} with entries from ${longDate(insights.from)} to ${longDate(insights.to)}.`;
  chart.append(summary);
  for (const [row, name] of [[0, "Mon"], [2, "Wed"], [4, "Fri"]]) {
    chart.append(label(0, row * cell + 10, name));
  }
  for (let ms = time(insights.from); ms <= last; ms += DAY_MS) {
    const date = iso(ms);
    const day = byDate.get(date);
    const x = 24 + Math.floor((ms - first) / DAY_MS / 7) * cell;
    const y = ((new Date(ms).getUTCDay() + 6) % 7) * cell;
    const group = svg("g", { class: "day", "data-date": date, "data-entries": day?.entries ?? 0 }, dayLabel(date, day));
    group.append(svg("rect", { class: "cell-frame", x: x + 0.5, y: y + 0.5, width: cell - 2, height: cell - 2, rx: 2 }));
    if (day) {
      const size = [0, 4, 7, cell - 2][Math.min(day.entries, 3)];
      const inset = (cell - 1 - size) / 2;
      group.append(svg("rect", { class: "cell", x: x + inset, y: y + inset, width: size, height: size, rx: 1 }));
    }
    chart.append(group);
  }
  return chart;
}

/** One bar a week, with its minutes in words on each bar. */
function minutesChart(insights, byDate) {
  const weeks = [];
  for (let start = monday(time(insights.from)); start <= time(insights.to); start += 7 * DAY_MS) {
    let seconds = 0;
    for (let day = 0; day < 7; day += 1) seconds += byDate.get(iso(start + day * DAY_MS))?.seconds ?? 0;
    weeks.push({ monday: iso(start), minutes: seconds / 60 });
  }
  const most = Math.max(1, ...weeks.map((week) => week.minutes));
  const width = 6;
  const height = 80;
  const total = Math.round(weeks.reduce((sum, week) => sum + week.minutes, 0));
  const chart = svg("svg", { viewBox: `0 0 ${weeks.length * width + 30} ${height + 14}`, role: "img", "aria-labelledby": "minutes-heading minutes-summary" });
  const summary = svg("desc", { id: "minutes-summary" });
  summary.textContent = `${counted(total, "minute", "minutes")} in ${counted(weeks.length, "week", "weeks")}; the most in one week: ${Math.round(most)}.`;
  chart.append(summary);
  chart.append(svg("line", { class: "axis", x1: 30, y1: height, x2: 30 + weeks.length * width, y2: height }));
  chart.append(label(0, 10, `${Math.round(most)} min`));
  weeks.forEach((week, index) => {
    const tall = (week.minutes / most) * (height - 4);
    chart.append(svg("rect", {
      class: "bar", x: 30 + index * width + 1, y: height - tall, width: width - 2, height: Math.max(tall, 0), "data-minutes": week.minutes.toFixed(1),
    }, `Week of ${longDate(week.monday)}: ${counted(Math.round(week.minutes), "minute", "minutes")}`));
  });
  return chart;
}

/** Mood 1 to 5 over the days that have one: a line through a point a day, each point named. */
function moodChart(insights) {
  const points = insights.days.filter((day) => day.mood);
  if (!points.length) return null;
  const start = time(insights.from);
  const span = Math.max(1, (time(insights.to) - start) / DAY_MS);
  const width = 360;
  const height = 100;
  const x = (date) => 24 + ((time(date) - start) / DAY_MS / span) * (width - 30);
  const y = (mood) => height - 8 - ((mood - 1) / 4) * (height - 16);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "mood-heading mood-summary" });
  const summary = svg("desc", { id: "mood-summary" });
  const mean = points.reduce((sum, day) => sum + day.mood, 0) / points.length;
  summary.textContent = `${counted(points.length, "day", "days")} with a mood, ${mean.toFixed(1)} of 5 on average.`;
  chart.append(summary);
  for (const mood of [1, 3, 5]) {
    chart.append(svg("line", { class: "axis", x1: 20, y1: y(mood), x2: width, y2: y(mood) }));
    chart.append(label(4, y(mood) + 3, String(mood)));
  }
  chart.append(svg("polyline", { class: "line", points: points.map((day) => `${x(day.date)},${y(day.mood)}`).join(" ") }));
  for (const day of points) {
    chart.append(svg("circle", { class: "point", cx: x(day.date), cy: y(day.mood), r: 3, "data-mood": day.mood }, `${longDate(day.date)}: mood ${day.mood} of 5`));
  }
  return chart;
}

/** Insights of the last 365 days: streaks, a calendar, minutes per week, mood, and the names and topics mentioned most. */
export async function insightsView({ back, search }) {
  const view = fromTemplate("insights-template");
  view.action("back").addEventListener("click", back);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  /** Reads the figures and draws them; `quietly` (a change arrived while they show) keeps what is shown when it cannot. */
  async function draw({ quietly = false } = {}) {
    const insights = await readForScreen(
      view, () => call("GET", `/v1/me/insights?tz=${encodeURIComponent(zone)}`),
      "You are offline: insights open when My Day can reach its server.", { quietly });
    if (!insights) return;
    const byDate = new Map(insights.days.map((day) => [day.date, day]));
    view.slot("span").textContent = `${longDate(insights.from)} – ${longDate(insights.to)}`;
    view.slot("streak").textContent =
      `Current streak: ${counted(insights.current_streak_days, "day", "days")} · longest: ${counted(insights.longest_streak_days, "day", "days")}`;
    const box = view.slot("calendar");
    const scrolled = box.scrollLeft;
    box.replaceChildren(calendar(insights, byDate));
    // The newest weeks in view at first; where the person scrolled to after.
    requestAnimationFrame(() => (box.scrollLeft = quietly ? scrolled : box.scrollWidth));
    view.slot("minutes").replaceChildren(minutesChart(insights, byDate));
    const mood = moodChart(insights);
    view.slot("mood").replaceChildren(...(mood ? [mood] : []));
    view.slot("no-mood").hidden = Boolean(mood);

    const groups = [["People", insights.mentions.people], ["Places", insights.mentions.places], ["Topics", insights.mentions.topics]];
    view.slot("mentions").replaceChildren(...groups.map(([name, mentions]) => {
      const section = el("section");
      section.append(el("h3", {}, name));
      if (!mentions.length) {
        section.append(el("p", { class: "meta" }, "None yet."));
        return section;
      }
      const list = el("ol");
      for (const mention of mentions) {
        const link = el("a", { href: "#/library", "aria-label": `${mention.text}, in ${counted(mention.count, "entry", "entries")}: search` });
        link.append(el("span", {}, mention.text), el("span", { class: "meta" }, String(mention.count)));
        link.addEventListener("click", (event) => {
          event.preventDefault();
          search(mention.text);
        });
        const item = el("li");
        item.append(link);
        list.append(item);
      }
      section.append(list);
      return section;
    }));

    view.slot("table").replaceChildren(...insights.days.map((day) => {
      const row = el("tr");
      row.append(
        el("th", { scope: "row" }, longDate(day.date)), el("td", {}, String(day.entries)),
        el("td", {}, (day.seconds / 60).toFixed(1)), el("td", {}, String(day.words)), el("td", {}, day.mood ? String(day.mood) : "–"),
      );
      return row;
    }));
  }

  await draw();
  // Drawn again when the diary changes while it shows.
  return { root: view.root, update: () => draw({ quietly: true }) };
}
