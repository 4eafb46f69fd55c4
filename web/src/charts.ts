import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Candle, DailyVolume } from "./api.js";

const BLUE = "#2f6fdf";
const TEAL = "#14967f";
const UP = "#16a34a";
const DOWN = "#dc2626";

function sizeOf(target: HTMLElement, height: number): { width: number; height: number } {
  return { width: Math.max(280, target.clientWidth), height };
}

/** The y values of a decimal-string column for drawing (display only: the raw strings stay in __dashboard). */
function toNumbers(values: (string | null)[]): (number | null)[] {
  return values.map((value) => (value === null ? null : Number(value)));
}

// The full uPlot build (the package's default) has the bar path builder.
const bars = (uPlot.paths.bars as NonNullable<typeof uPlot.paths.bars>)({ size: [0.6, 64] });

/** Unix seconds of a YYYY-MM-DD date's UTC midnight. */
function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

/** Draws one bar chart of daily values (oldest day first); replaces what `target` held. */
export function drawDailyBars(
  target: HTMLElement,
  volumes: DailyVolume[],
  pick: (day: DailyVolume) => string | number,
  label: string,
  format: (value: number) => string,
  color: string = BLUE,
): uPlot {
  const days = [...volumes].reverse();
  const data: uPlot.AlignedData = [
    days.map((day) => dayStart(day.date)),
    toNumbers(days.map((day) => String(pick(day)))),
  ];
  target.replaceChildren();
  return new uPlot(
    {
      ...sizeOf(target, 160),
      legend: { show: true },
      scales: {
        // Half a day either side: the first and last bars are whole.
        x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { values: (_u, ticks) => ticks.map((tick) => new Date(tick * 1000).toISOString().slice(5, 10)) },
        { size: 70, values: (_u, ticks) => ticks.map(format) },
      ],
      series: [
        {
          label: "day",
          value: (_u, value) => (value == null ? "" : new Date(value * 1000).toISOString().slice(0, 10)),
        },
        {
          label,
          stroke: color,
          fill: `${color}b3`,
          paths: bars,
          points: { show: false },
          value: (_u, value) => (value == null ? "" : format(value)),
        },
      ],
    },
    data,
    target,
  );
}

export const TRADERS_COLOR = TEAL;

// uPlot draws no candles itself: the four price series only set the scale and the legend, and
// this hook paints a wick (low to high) and a body (open to close) per bucket.
function drawCandles(u: uPlot): void {
  const [xs, opens, highs, lows, closes] = u.data;
  if (xs === undefined || xs.length === 0) return;
  const ctx = u.ctx;
  const px = devicePixelRatio;
  const step = xs.length > 1 ? (u.bbox.width / (xs.length + 1)) * 0.7 : 12 * px;
  const body = Math.max(px, Math.min(step, 18 * px));
  ctx.save();
  ctx.beginPath();
  ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
  ctx.clip();
  for (let i = 0; i < xs.length; i++) {
    const [open, high, low, close] = [opens?.[i], highs?.[i], lows?.[i], closes?.[i]];
    if (open == null || high == null || low == null || close == null) continue;
    const x = u.valToPos(xs[i] as number, "x", true);
    const [yOpen, yHigh, yLow, yClose] = [open, high, low, close].map((v) => u.valToPos(v, "y", true)) as [
      number,
      number,
      number,
      number,
    ];
    ctx.fillStyle = close >= open ? UP : DOWN;
    ctx.fillRect(Math.round(x - px / 2), yHigh, px, Math.max(px, yLow - yHigh));
    ctx.fillRect(
      Math.round(x - body / 2),
      Math.min(yOpen, yClose),
      body,
      Math.max(px, Math.abs(yClose - yOpen)),
    );
  }
  ctx.restore();
}

/** Draws the candle chart of a token's USD price; replaces what `target` held. */
export function drawCandleChart(target: HTMLElement, candles: Candle[]): uPlot {
  const data: uPlot.AlignedData = [
    candles.map((candle) => candle.start),
    toNumbers(candles.map((candle) => candle.open)),
    toNumbers(candles.map((candle) => candle.high)),
    toNumbers(candles.map((candle) => candle.low)),
    toNumbers(candles.map((candle) => candle.close)),
  ];
  const price = (_u: uPlot, value: number | null) => (value == null ? "" : value.toPrecision(6));
  const priceSeries = (label: string): uPlot.Series => ({
    label,
    paths: () => null,
    points: { show: false },
    value: price,
  });
  target.replaceChildren();
  return new uPlot(
    {
      ...sizeOf(target, 210),
      scales: { x: { time: true } },
      axes: [{}, { size: 80, values: (_u, ticks) => ticks.map((tick) => tick.toPrecision(5)) }],
      series: [{}, priceSeries("open"), priceSeries("high"), priceSeries("low"), priceSeries("close")],
      hooks: { draw: [drawCandles] },
    },
    data,
    target,
  );
}
