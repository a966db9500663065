// A cluster of the map (PRODUCT §2 "Map"): the shops of one cell of the
// server's grid as a numbered circle, a button that zooms in on them
// (click, Enter or Space) or, at the largest zoom, opens the list of them
// (issue 37: it did nothing there).
import type { KeyboardEvent } from 'react'
import { formatNumber } from '../format'

/** "3 magasins", "1 magasin". */
export function shopCount(count: number): string {
  return count === 1 ? '1 magasin' : `${formatNumber(count, 0)} magasins`
}

/** The accessible name of a cluster: what it holds and what it does (zoom in, or at the largest zoom list its shops). */
export function clusterLabel(count: number, zoomable = true): string {
  return `${shopCount(count)} : ${zoomable ? 'zoomer sur ce groupe' : 'voir la liste de ce groupe'}`
}

/** The circle's radius: larger for more shops, from 14 to 26 pixels. */
export function clusterRadius(count: number): number {
  return Math.min(26, 14 + 4 * Math.log10(Math.max(1, count)))
}

export function ClusterMarker({
  count,
  x,
  y,
  zoomable = true,
  expanded = false,
  controls,
  onZoom,
}: {
  count: number
  x: number
  y: number
  /** False at the largest zoom: the button opens the list of its shops. */
  zoomable?: boolean
  /** Its list of shops open (at the largest zoom). */
  expanded?: boolean
  /** The id of that list. */
  controls?: string
  onZoom: () => void
}) {
  const r = clusterRadius(count)
  const label = clusterLabel(count, zoomable)
  const text = count >= 10000 ? `${Math.floor(count / 1000)}k` : String(count)
  return (
    <g
      transform={`translate(${x},${y})`}
      data-testid="cluster-marker"
      data-count={count}
      role="button"
      tabIndex={0}
      aria-label={label}
      aria-expanded={zoomable ? undefined : expanded}
      aria-controls={!zoomable && expanded ? controls : undefined}
      style={{ cursor: zoomable ? 'zoom-in' : 'pointer' }}
      onClick={onZoom}
      onKeyDown={(e: KeyboardEvent<SVGGElement>) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onZoom()
        }
      }}
    >
      <title>{label}</title>
      <circle r={r + 4} fill="#2f9e44" fillOpacity={0.25} />
      <circle r={r} fill="#2f9e44" stroke="#fff" strokeWidth={2} />
      <text
        textAnchor="middle"
        dy="0.35em"
        fontSize={count >= 1000 ? 11 : 13}
        fontWeight={700}
        fill="#fff"
        style={{ pointerEvents: 'none' }}
      >
        {text}
      </text>
    </g>
  )
}
