// A windowed list's arithmetic: which of `count` rows of `rowHeight` pixels a viewport of `height` pixels scrolled to
// `scrollTop` shows, with `overscan` rows either side so a quick scroll does not show blank rows.
export interface RowWindow {
  first: number;
  /** One past the last row to render. */
  end: number;
}

export function rowWindow(scrollTop: number, height: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first, end: Math.max(first, end) };
}
