// Shops too close to be told apart on the map (issue 37, finding 5): a shop
// registered by its postal code is placed on its commune, so the shops of
// one town sit on the very same point, and pins a few pixels apart cover
// each other. Pure geometry, in screen pixels: the pins closer than a
// finger can tell apart become one stack (stackPoints); a stack opened
// spreads its shops on a ring around the point (spreadOffsets), each pin
// clear of the others and of the stack's centre. No React, no network.

/** A shop's pin on the screen: where its point is. */
export interface ScreenPoint {
  id: string
  x: number
  y: number
}

/** Pins drawn as one marker: their ids (in the order given) and where it stands. */
export interface Stack {
  /** The ids sorted: the same shops make the same key wherever the map moves. */
  key: string
  ids: string[]
  x: number
  y: number
}

/**
 * The smallest distance between two markers, in pixels: WCAG 2.5.8's
 * minimum target (24 × 24 CSS pixels), and a pin's width (22) with room.
 */
export const MIN_APART = 24

/** The most shops a stack spreads on the map; a larger stack opens a list of its shops. */
export const SPREAD_MAX = 8

/** A pin's box around its point (the tip at the bottom): what a spread pin must keep clear of. */
export const PIN = { left: 11, right: 11, top: 33, bottom: 0 } as const

/** The box around a stack's centre that the spread pins leave free (its button). */
export const CENTRE = 12

/**
 * The markers to draw: pins closer than `apart` pixels joined into stacks,
 * until every two markers are at least `apart` from each other (a stack
 * stands at the mean of its pins, which may come near another marker: the
 * two are joined in turn). A single pin is a stack of one at its point.
 * Stacks come in the order of their first pin.
 */
export function stackPoints(points: readonly ScreenPoint[], apart: number = MIN_APART): Stack[] {
  const n = points.length
  const parent = points.map((_, i) => i)
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]]
      i = parent[i]
    }
    return i
  }
  const join = (a: number, b: number) => {
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb)
  }
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      if (Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y) < apart) join(i, j)
  for (;;) {
    const groups = new Map<number, number[]>()
    for (let i = 0; i < n; i++) {
      const root = find(i)
      groups.set(root, [...(groups.get(root) ?? []), i])
    }
    const centres = [...groups.entries()].map(([root, members]) => ({
      root,
      x: members.reduce((t, i) => t + points[i].x, 0) / members.length,
      y: members.reduce((t, i) => t + points[i].y, 0) / members.length,
      members,
    }))
    let merged = false
    for (let a = 0; a < centres.length && !merged; a++)
      for (let b = a + 1; b < centres.length && !merged; b++)
        if (Math.hypot(centres[a].x - centres[b].x, centres[a].y - centres[b].y) < apart) {
          join(centres[a].root, centres[b].root)
          merged = true
        }
    if (merged) continue
    return centres
      .sort((a, b) => a.members[0] - b.members[0])
      .map(({ x, y, members }) => {
        const ids = members.map((i) => points[i].id)
        return { key: [...ids].sort().join(' '), ids, x, y }
      })
  }
}

/** Whether two pins at these points (their tips) would cover each other, with `gap` pixels between them. */
export function pinsOverlap(a: [number, number], b: [number, number], gap = 2): boolean {
  return (
    a[0] - PIN.left < b[0] + PIN.right + gap &&
    b[0] - PIN.left < a[0] + PIN.right + gap &&
    a[1] - PIN.top < b[1] + PIN.bottom + gap &&
    b[1] - PIN.top < a[1] + PIN.bottom + gap
  )
}

/** Whether a pin at this point (its tip) covers the stack's centre button. */
export function pinCoversCentre(p: [number, number], gap = 2): boolean {
  return (
    p[0] - PIN.left < CENTRE + gap &&
    -CENTRE < p[0] + PIN.right + gap &&
    p[1] - PIN.top < CENTRE + gap &&
    -CENTRE < p[1] + PIN.bottom + gap
  )
}

/**
 * Where the `n` pins of an opened stack go, relative to its point: on a
 * ring starting straight up, clockwise, its radius the smallest (in steps
 * of 2 pixels, from 30) at which no two pins cover each other nor the
 * centre.
 */
export function spreadOffsets(n: number): [number, number][] {
  if (n <= 0) return []
  for (let radius = 30; ; radius += 2) {
    const spots = Array.from({ length: n }, (_, i): [number, number] => {
      const angle = (2 * Math.PI * i) / n
      // Pins stand on their tips: the ring is lifted by half a pin, so that their heads circle the point.
      return [Math.round(radius * Math.sin(angle)), Math.round(-radius * Math.cos(angle) + PIN.top / 2)]
    })
    const clear =
      spots.every((p) => !pinCoversCentre(p)) &&
      spots.every((p, i) => spots.every((q, j) => j <= i || !pinsOverlap(p, q)))
    if (clear) return spots
  }
}

/** A rectangle of the map, in pixels. */
export interface Frame {
  x0: number
  y0: number
  x1: number
  y1: number
}

const overlaps = (a: Frame, b: Frame) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
const within = (a: Frame, f: Frame) => a.x0 >= f.x0 && a.x1 <= f.x1 && a.y0 >= f.y0 && a.y1 <= f.y1
const moved = (a: Frame, dx: number, dy: number): Frame => ({
  x0: a.x0 + dx,
  y0: a.y0 + dy,
  x1: a.x1 + dx,
  y1: a.y1 + dy,
})

/**
 * The box an opened stack at (x, y) takes with its pins at `offsets`
 * (spreadOffsets): its centre button and every pin.
 */
export function spreadBox(x: number, y: number, offsets: readonly [number, number][]): Frame {
  const boxes: Frame[] = [
    { x0: x - CENTRE, y0: y - CENTRE, x1: x + CENTRE, y1: y + CENTRE },
    ...offsets.map(([dx, dy]) => ({
      x0: x + dx - PIN.left,
      y0: y + dy - PIN.top,
      x1: x + dx + PIN.right,
      y1: y + dy + PIN.bottom,
    })),
  ]
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  }
}

/**
 * How far to move the map, in pixels, so that a stack at (x, y) spread at
 * `offsets` shows its centre button and all its pins inside `frame`, at
 * least `margin` from its edges, and clear of the `keepOut` boxes (the
 * map's buttons, drawn over it): [0, 0] when they already are (issue 37: a
 * stack opened near the map's edge spread some shops out of sight, where
 * no finger reaches them). The smallest move on each axis; around a
 * keep-out box, the shortest of the four ways out that stays in the frame.
 * A spread wider or taller than the frame is centred in it.
 */
export function inwardShift(
  x: number,
  y: number,
  offsets: readonly [number, number][],
  frame: Frame,
  keepOut: readonly Frame[] = [],
  margin = 4,
): [number, number] {
  const box = spreadBox(x, y, offsets)
  const f = { x0: frame.x0 + margin, y0: frame.y0 + margin, x1: frame.x1 - margin, y1: frame.y1 - margin }
  const along = (lo: number, hi: number, flo: number, fhi: number) =>
    hi - lo > fhi - flo ? (flo + fhi - lo - hi) / 2 : lo < flo ? flo - lo : hi > fhi ? fhi - hi : 0
  let dx = along(box.x0, box.x1, f.x0, f.x1)
  let dy = along(box.y0, box.y1, f.y0, f.y1)
  for (const k of keepOut) {
    const at = moved(box, dx, dy)
    const out = { x0: k.x0 - margin, y0: k.y0 - margin, x1: k.x1 + margin, y1: k.y1 + margin }
    if (!overlaps(at, out)) continue
    const ways: [number, number][] = [
      [out.x0 - at.x1, 0],
      [out.x1 - at.x0, 0],
      [0, out.y0 - at.y1],
      [0, out.y1 - at.y0],
    ]
    const best = ways
      .filter(([wx, wy]) => within(moved(at, wx, wy), f))
      .sort((a, b) => Math.abs(a[0]) + Math.abs(a[1]) - Math.abs(b[0]) - Math.abs(b[1]))[0]
    if (best) {
      dx += best[0]
      dy += best[1]
    }
  }
  // No "-0": a stack already clear does not move.
  return [dx || 0, dy || 0]
}
