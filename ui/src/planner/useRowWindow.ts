// Which of the planner grid's rows are in the DOM (issue 20 "the grid
// rendering only the rows in view"): the rows in view in the grid's
// scrolling box, a few more each side (OVERSCAN), and the row of the
// grid's tab stop wherever it is, so that Tab always finds the grid and the
// cell being edited or focused never leaves the DOM under the user. The
// rows left out are replaced by empty space of their height, so the box
// scrolls as if every row were there. Sizes are measured as rows render
// (a long product name may wrap), ROW_HEIGHT until then.
//
// Built on @tanstack/react-virtual (the scroll element is the grid's box;
// its sticky header is the list's scroll margin and keeps a row scrolled
// to from hiding under it).
import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  type Range,
  type Rect,
  useVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual'
import { useCallback, useMemo } from 'react'

/** A row's height before it is measured: a cell's 34 px and its border. */
export const ROW_HEIGHT = 35

/** Rows rendered beyond each edge of the view. */
export const OVERSCAN = 6

/** One rendered row, or the space of rows left out. */
export type RowSlot = { kind: 'row'; index: number } | { kind: 'gap'; key: string; height: number }

type Box = Virtualizer<HTMLDivElement, HTMLTableRowElement>

// Without a layout (a grid not displayed, or a test's DOM), the box and
// the rows measure 0: the box is then taken as the window's height and a
// row as ROW_HEIGHT, so that a window's worth of rows renders, not none or
// all.
function observeBox(instance: Box, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) =>
    cb(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight }),
  )
}

function measureRow(el: HTMLTableRowElement, entry: ResizeObserverEntry | undefined, instance: Box) {
  const size = measureElement(el, entry, instance)
  return size > 0 ? size : ROW_HEIGHT
}

export interface RowWindow {
  /** The rows to render, in order, with the gaps between them. */
  slots: RowSlot[]
  /** The ref a rendered row takes (with `data-index`), to be measured. */
  measure: (el: HTMLTableRowElement | null) => void
  /** Scrolls the box so that the row is in view under the header (nothing when it is). */
  scrollTo: (index: number) => void
}

/**
 * The rows of a grid of `count` rows to render in the box `scrollElement`
 * returns, whose sticky header is `headerHeight` high; `keep` (the tab
 * stop's row) is always among them.
 */
export function useRowWindow({
  count,
  scrollElement,
  headerHeight,
  keep,
  rowKey,
}: {
  count: number
  scrollElement: () => HTMLDivElement | null
  headerHeight: number
  keep: number | null
  rowKey: (index: number) => string
}): RowWindow {
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      if (keep === null || keep >= range.count || indexes.includes(keep)) return indexes
      return [...indexes, keep].sort((a, b) => a - b)
    },
    [keep],
  )
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    count,
    getScrollElement: scrollElement,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: rowKey,
    overscan: OVERSCAN,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    rangeExtractor,
    observeElementRect: observeBox,
    measureElement: measureRow,
    // The first render already has the rows of a window's height, before the box is measured.
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    // React 19 refuses a flushSync from a layout effect (the first measure);
    // a scroll's new rows come with the next render all the same.
    useFlushSync: false,
  })

  const items = virtualizer.getVirtualItems()
  const total = virtualizer.getTotalSize()
  const slots = useMemo(() => {
    const out: RowSlot[] = []
    // Item positions count from the box's top (the header is the scroll margin).
    let end = headerHeight
    for (const item of items) {
      if (item.start > end) out.push({ kind: 'gap', key: `before-${item.key}`, height: item.start - end })
      out.push({ kind: 'row', index: item.index })
      end = item.end
    }
    if (headerHeight + total > end) out.push({ kind: 'gap', key: 'after', height: headerHeight + total - end })
    return out
  }, [items, total, headerHeight])

  const scrollTo = useCallback((index: number) => virtualizer.scrollToIndex(index, { align: 'auto' }), [virtualizer])
  return { slots, measure: virtualizer.measureElement, scrollTo }
}
