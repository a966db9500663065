// Label placement for the map: shops close to each other (several shops in
// one town) must not print their names on top of each other, nor over the
// cities. A greedy placement, pure: labels are taken in priority order, each
// tries its positions in turn and keeps the first one that collides with no
// label already placed and no marker; a label with no free position is left
// out (the marker keeps its name for screen readers and its tooltip).

export interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

export type Anchor = 'start' | 'middle' | 'end'

/** A position relative to the marker: offset of the text's anchor point (baseline). */
export interface Spot {
  dx: number
  dy: number
  anchor: Anchor
}

export interface LabelRequest {
  id: string
  /** The marker's position on screen. */
  x: number
  y: number
  text: string
  fontSize: number
  bold?: boolean
  /** Positions to try, preferred first. */
  spots: readonly Spot[]
  /** Markers of a lower rank than the label's may be covered by it (a shop's name may cover a city dot). 0 by default. */
  rank?: number
}

/** A marker's box, which labels of its rank or lower avoid. */
export interface Obstacle {
  /** The label it belongs to (its own label may cover it). */
  id: string
  box: Box
  rank?: number
}

export interface Placement {
  dx: number
  dy: number
  anchor: Anchor
}

/** Average glyph width as a share of the font size (system sans-serif). */
const GLYPH = { regular: 0.56, bold: 0.62 }

/** A text's extent in pixels at a font size, bold or not: its width, and its height above and below the baseline. */
export interface TextExtent {
  width: number
  ascent: number
  descent: number
}
export type Measure = (text: string, fontSize: number, bold: boolean) => TextExtent

/** The extent of a text estimated from its length (where nothing can measure it: tests). */
export const estimateExtent: Measure = (text, fontSize, bold) => ({
  width: [...text].length * fontSize * (bold ? GLYPH.bold : GLYPH.regular),
  ascent: 0.8 * fontSize,
  descent: 0.25 * fontSize,
})

let canvas: OffscreenCanvasRenderingContext2D | null | undefined

/**
 * The extent of a text as the browser draws it in the page's font (a
 * canvas measures it: the font's own ascent and descent, what the text's
 * box spans), with a pixel of halo around; the estimate where there is no
 * canvas (jsdom).
 */
export const measureExtent: Measure = (text, fontSize, bold) => {
  if (canvas === undefined)
    canvas = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d')
  if (!canvas || typeof document === 'undefined') return estimateExtent(text, fontSize, bold)
  canvas.font = `${bold ? 700 : 400} ${fontSize}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`
  const m = canvas.measureText(text)
  return {
    width: m.width + 2,
    ascent: (m.fontBoundingBoxAscent || 0.8 * fontSize) + 1,
    descent: (m.fontBoundingBoxDescent || 0.25 * fontSize) + 1,
  }
}

/** The box a label would take at a spot, its text measured by `measure` (estimated by default). */
export function labelBox(
  req: Pick<LabelRequest, 'x' | 'y' | 'text' | 'fontSize' | 'bold'>,
  spot: Spot,
  measure: Measure = estimateExtent,
): Box {
  const { width, ascent, descent } = measure(req.text, req.fontSize, !!req.bold)
  const x = req.x + spot.dx
  const y = req.y + spot.dy
  const x0 = spot.anchor === 'start' ? x : spot.anchor === 'end' ? x - width : x - width / 2
  return { x0, y0: y - ascent, x1: x0 + width, y1: y + descent }
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

/** Whether a box lies wholly inside another. */
export function inside(box: Box, frame: Box): boolean {
  return box.x0 >= frame.x0 && box.x1 <= frame.x1 && box.y0 >= frame.y0 && box.y1 <= frame.y1
}

/**
 * Places labels in the order given (highest priority first), avoiding each
 * other and the markers' boxes (`obstacles`) of their rank or higher, except
 * their own marker, and, given a `frame` (the view), never cut by its edges.
 * Returns the chosen spot per id, or null for a label left out.
 */
export function placeLabels(
  requests: readonly LabelRequest[],
  obstacles: readonly Obstacle[] = [],
  { frame, measure = estimateExtent }: { frame?: Box; measure?: Measure } = {},
): Map<string, Placement | null> {
  const placed: Box[] = []
  const out = new Map<string, Placement | null>()
  for (const req of requests) {
    let chosen: Placement | null = null
    for (const spot of req.spots) {
      const box = labelBox(req, spot, measure)
      if (frame && !inside(box, frame)) continue
      if (placed.some((p) => overlaps(p, box))) continue
      const rank = req.rank ?? 0
      if (obstacles.some((o) => o.id !== req.id && (o.rank ?? 0) >= rank && overlaps(o.box, box))) continue
      chosen = { dx: spot.dx, dy: spot.dy, anchor: spot.anchor }
      placed.push(box)
      break
    }
    out.set(req.id, chosen)
  }
  return out
}
