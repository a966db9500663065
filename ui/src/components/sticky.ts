// A table's first column kept in place when the table scrolls sideways in
// its own box (issue 19 "Phone layouts"): the planner's products, the
// supply grid's products, the deliveries' partners, the progression's
// products. The table sits in a native Table.ScrollContainer, its header
// sticky (Table's stickyHeader) when the box also scrolls down.
import type { CSSProperties } from 'react'
import './sticky.css'

const BODY = 'var(--mantine-color-body)'

/**
 * The row's own background, which the sticky cell draws over the page's
 * colour: sticky.css sets it from the row's state (a stripe, the pointer
 * over it), `tint` from what only the component knows (a selection).
 */
const ROW_TINT = 'var(--primeur-row-tint, transparent)'

/**
 * The style of a cell of the sticky first column. It is opaque, so the
 * columns scrolled under it do not show through, and it follows its row:
 * the row's own background (a stripe, the highlight of the row under the
 * pointer or pressed — sticky.css —, `tint` for a selection) is laid over
 * the page's colour, so that a translucent one stays opaque and the cell
 * looks like the rest of its row. A row's background set inline (a
 * selection) wins over its hover, as Mantine's does: give it as `tint`.
 * Header cells take `header`: above the body's sticky cells when the
 * header is sticky too. It sticks half a pixel left of the box's edge:
 * with collapsed borders Chromium leaves the cell's half of the table's
 * left border unpainted, and what scrolls under it (a chart's line) would
 * show through that sliver, now outside the box.
 */
export function stickyColumn({ tint, header = false }: { tint?: string; header?: boolean } = {}): CSSProperties {
  return {
    position: 'sticky',
    left: -0.5,
    zIndex: header ? 3 : 2,
    ...(tint ? ({ '--primeur-row-tint': tint } as CSSProperties) : {}),
    background: `linear-gradient(${ROW_TINT}, ${ROW_TINT}), ${BODY}`,
    boxShadow: 'inset -1px 0 0 var(--table-border-color)',
  }
}
