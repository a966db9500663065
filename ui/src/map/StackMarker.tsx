// Shops too close to be told apart on the map, as one marker (spread.ts): a
// pin with their number, a button (tap, click, Enter or Space) that spreads
// them around it (up to SPREAD_MAX) or opens the list of them; pressed
// again, it gathers them back. Opened, it shrinks to a round button at the
// shops' point, which the spread pins leave free.
import type { KeyboardEvent, MouseEvent, ReactNode } from 'react'
import { shopCount } from './ClusterMarker'
import { CENTRE } from './spread'

/** The accessible name of a stack: what it holds (aria-expanded says whether it is open). */
export function stackLabel(count: number): string {
  return `${shopCount(count)} à cet endroit`
}

export function StackMarker({
  stackKey,
  count,
  x,
  y,
  expanded,
  spread,
  controls,
  onToggle,
  children,
}: {
  /** The stack's key (spread.ts), to find its marker again. */
  stackKey: string
  count: number
  x: number
  y: number
  /** Open: its shops spread around it, or listed. */
  expanded: boolean
  /** Its shops spread around it: the marker is the round button at their point. */
  spread: boolean
  /** The id of the list it opens, when it opens one. */
  controls?: string
  onToggle: () => void
  /** Its label, drawn beside it. */
  children?: ReactNode
}) {
  const text = count > 99 ? '99+' : String(count)
  return (
    <g
      transform={`translate(${x},${y})`}
      data-testid="shop-stack"
      data-stack-key={stackKey}
      data-count={count}
      role="button"
      tabIndex={0}
      aria-label={stackLabel(count)}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      style={{ cursor: 'pointer' }}
      onClick={(e: MouseEvent<SVGGElement>) => {
        e.stopPropagation()
        onToggle()
      }}
      onKeyDown={(e: KeyboardEvent<SVGGElement>) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onToggle()
        }
      }}
    >
      <title>{stackLabel(count)}</title>
      {spread ? (
        <>
          <circle r={CENTRE} fill="#fff" stroke="#2b8a3e" strokeWidth={2} />
          <text
            textAnchor="middle"
            dy="0.35em"
            fontSize={11}
            fontWeight={700}
            fill="#1b3a24"
            style={{ pointerEvents: 'none' }}
          >
            {text}
          </text>
        </>
      ) : (
        <>
          {/* A second pin behind, a little to the right: several shops here. */}
          <path
            d="M5,-2 C3,-10 -6,-14 -6,-23 A11,11 0 1 1 16,-23 C16,-14 7,-10 5,-2 Z"
            fill="#7bc68a"
            stroke="#fff"
            strokeWidth={1.5}
          />
          <path
            d="M0,0 C-2,-8 -11,-12 -11,-21 A11,11 0 1 1 11,-21 C11,-12 2,-8 0,0 Z"
            fill="#237a36"
            stroke="#fff"
            strokeWidth={1.5}
          />
          <text
            y={-21}
            textAnchor="middle"
            dy="0.35em"
            fontSize={count > 9 ? 10 : 12}
            fontWeight={700}
            fill="#fff"
            style={{ pointerEvents: 'none' }}
          >
            {text}
          </text>
        </>
      )}
      {children}
    </g>
  )
}
