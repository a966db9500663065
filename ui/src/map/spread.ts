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
