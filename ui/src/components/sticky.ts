// A table's first column kept in place when the table scrolls sideways in
// its own box (issue 19 "Phone layouts"): the planner's products, the
// supply grid's products, the deliveries' partners, the progression's
// products. The table sits in a native Table.ScrollContainer, its header
// sticky (Table's stickyHeader) when the box also scrolls down.
import type { CSSProperties } from 'react'

const BODY = 'var(--mantine-color-body)'

/**
 * The style of a cell of the sticky first column. It is opaque, so the
 * columns scrolled under it do not show through; `tint` is the row's own
 * background (a stripe, a selection), laid over the page's colour so that
 * a translucent one stays opaque. Header cells take `header`: above the
 * body's sticky cells when the header is sticky too. It sticks half a
 * pixel left of the box's edge: with collapsed borders Chromium leaves the
 * cell's half of the table's left border unpainted, and what scrolls under
 * it (a chart's line) would show through that sliver, now outside the box.
 */
export function stickyColumn({ tint, header = false }: { tint?: string; header?: boolean } = {}): CSSProperties {
  return {
    position: 'sticky',
    left: -0.5,
    zIndex: header ? 3 : 2,
    background: tint ? `linear-gradient(${tint}, ${tint}), ${BODY}` : BODY,
    boxShadow: 'inset -1px 0 0 var(--table-border-color)',
  }
}
