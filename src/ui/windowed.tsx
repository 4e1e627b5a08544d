// A windowed list: only the rows in view (and a few either side) are in the page, placed at their offsets in a
// scroller as tall as all of them, so a thousand rows scroll as smoothly as ten.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { rowWindow } from "./window.js";

interface Props {
  count: number;
  rowHeight: number;
  /** The most the list takes on the page; a shorter list takes what it needs. */
  height: number;
  /** Row `index`, absolutely placed at `top`. */
  row(index: number, top: string): ComponentChildren;
}

export function Windowed({ count, rowHeight, height, row }: Props) {
  const [scrollTop, setScrollTop] = useState(0);
  const { first, end } = rowWindow(scrollTop, height, rowHeight, count);
  const shown: ComponentChildren[] = [];
  for (let index = first; index < end; index++) shown.push(row(index, `${index * rowHeight}px`));
  return (
    <div class="window" style={{ maxHeight: `${height}px` }} onScroll={(e) => setScrollTop((e.target as HTMLElement).scrollTop)}>
      <div style={{ height: `${count * rowHeight}px`, position: "relative" }}>{shown}</div>
    </div>
  );
}
