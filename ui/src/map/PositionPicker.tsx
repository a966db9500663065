// The small map of the profile form (PRODUCT §2 "Profile form"): the
// position of a shop or farm as a pin, placed by a click on the map or by
// dragging the pin; dragging the map moves it. The latitude and longitude
// inputs beside it stay the way to set it with a keyboard.
import { ActionIcon, Box, Paper, Stack, Text } from '@mantine/core'
import { useElementSize } from '@mantine/hooks'
import { geoPath } from 'd3-geo'
import { type PointerEvent, memo, useEffect, useMemo, useRef, useState } from 'react'
import { type LonLat, MAP, draggedCenter, makeProjection } from './geo'
import { DEPARTMENTS, DRAWN_CITIES } from './shapes'

/** Zoom bounds of the picker: from a region down to about 10 m a pixel. */
export const PICKER_ZOOM = { initial: 8, min: 1, max: 64 } as const
const DRAG_THRESHOLD = 4
const FALLBACK_WIDTH = 480

/** A coordinate as the profile stores it: a decimal string with 5 decimals (about 1 m), "-1.55360". */
export function coordinateText(value: number): string {
  return value.toFixed(5)
}

/** "45,90878° N, 6,12565° E" for the map's accessible name. */
export function describePosition([lon, lat]: LonLat): string {
  const fmt = (v: number) => Math.abs(v).toFixed(5).replace('.', ',')
  return `${fmt(lat)}° ${lat >= 0 ? 'N' : 'S'}, ${fmt(lon)}° ${lon >= 0 ? 'E' : 'O'}`
}

interface Press {
  x: number
  y: number
  projection: ReturnType<typeof makeProjection>
  /** Pressed on the pin: the press drags the pin, not the map. */
  onPin: boolean
  moved: boolean
}

export interface PositionPickerProps {
  /** The position, [lon, lat]; null when there is none yet. */
  value: LonLat | null
  onChange: (lonLat: LonLat) => void
  /** Where to look while there is no position (the town of the address). */
  fallbackCenter?: LonLat | null
  height?: number
}

/** The picker; it redraws only when its props change (the form around it re-renders on every key). */
export const PositionPicker = memo(function PositionPicker({
  value,
  onChange,
  fallbackCenter,
  height = 260,
}: PositionPickerProps) {
  const { ref: boxRef, width: measured } = useElementSize()
  const width = measured > 0 ? measured : FALLBACK_WIDTH
  const [center, setCenter] = useState<LonLat>(value ?? fallbackCenter ?? MAP.center)
  const [zoom, setZoom] = useState<number>(value || fallbackCenter ? PICKER_ZOOM.initial : 1)
  const press = useRef<Press | null>(null)
  const svgRef = useRef<SVGSVGElement | null>(null)

  const projection = useMemo(() => makeProjection(center, zoom, width, height), [center, zoom, width, height])
  const shapes = useMemo(() => {
    const path = geoPath(projection)
    return DEPARTMENTS.map((d) => ({ code: d.properties.CC_2, d: path(d) ?? undefined }))
  }, [projection])
  const pin = value ? projection(value) : null

  // A position set from elsewhere (the town, the inputs) comes into view.
  const valueKey = value ? `${value[0]},${value[1]}` : ''
  useEffect(() => {
    if (!value) return
    const xy = projection(value)
    const margin = 24
    if (!xy || xy[0] < margin || xy[0] > width - margin || xy[1] < margin || xy[1] > height - margin) {
      setCenter(value)
      setZoom((z) => Math.max(z, PICKER_ZOOM.initial))
    }
    // Only a new value moves the view; projection changes while panning must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valueKey])
  const fallbackKey = fallbackCenter ? `${fallbackCenter[0]},${fallbackCenter[1]}` : ''
  useEffect(() => {
    if (!value && fallbackCenter) {
      setCenter(fallbackCenter)
      setZoom(PICKER_ZOOM.initial)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fallbackKey])

  const cities = useMemo(
    () =>
      DRAWN_CITIES.map((c) => ({ city: c, xy: projection(c.lonLat) })).filter(
        (c): c is { city: (typeof DRAWN_CITIES)[number]; xy: [number, number] } =>
          !!c.xy && c.xy[0] >= -40 && c.xy[0] <= width + 40 && c.xy[1] >= -40 && c.xy[1] <= height + 40,
      ),
    [projection, width, height],
  )

  /** The [lon, lat] under a pointer event. */
  const lonLatAt = (e: PointerEvent<SVGSVGElement>, p = projection): LonLat | null => {
    const rect = svgRef.current?.getBoundingClientRect()
    if (!rect) return null
    const at = p.invert?.([e.clientX - rect.left, e.clientY - rect.top])
    return at && Number.isFinite(at[0]) && Number.isFinite(at[1]) ? [at[0], at[1]] : null
  }

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return
    const onPin = (e.target as Element).closest?.('[data-pin]') !== null
    press.current = { x: e.clientX, y: e.clientY, projection, onPin, moved: false }
    if (onPin) e.currentTarget.setPointerCapture?.(e.pointerId)
  }
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const p = press.current
    if (!p) return
    const dx = e.clientX - p.x
    const dy = e.clientY - p.y
    if (!p.moved) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return
      p.moved = true
      if (!p.onPin) e.currentTarget.setPointerCapture?.(e.pointerId)
    }
    if (p.onPin) {
      const at = lonLatAt(e)
      if (at) onChange(at)
    } else {
      const next = draggedCenter(p.projection, dx, dy)
      if (next) setCenter(next)
    }
  }
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    const p = press.current
    press.current = null
    if (e.currentTarget.hasPointerCapture?.(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId)
    if (!p || p.moved) return
    // A click (not a drag) puts the pin there.
    const at = lonLatAt(e)
    if (at) onChange(at)
  }

  const label = value
    ? `Carte de la position : repère à ${describePosition(value)}. Cliquez sur la carte ou déplacez le repère pour le changer.`
    : 'Carte de la position : aucun repère. Cliquez sur la carte pour placer le repère.'

  return (
    <Paper withBorder radius="md" pos="relative" style={{ overflow: 'hidden' }} ref={boxRef}>
      <svg
        ref={svgRef}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={label}
        data-testid="position-picker"
        data-zoom={zoom}
        data-center={`${center[0].toFixed(4)},${center[1].toFixed(4)}`}
        style={{ display: 'block', touchAction: 'none', cursor: 'crosshair', userSelect: 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (press.current = null)}
      >
        <rect width={width} height={height} fill="#e9ecef" />
        {shapes.map((shape) => (
          <path key={shape.code} d={shape.d} fill="#f6f3ea" stroke="#b9b29c" strokeWidth={1} strokeLinejoin="round" />
        ))}
        {cities.map(({ city, xy: [x, y] }) => (
          <g key={city.id} transform={`translate(${x},${y})`} style={{ pointerEvents: 'none' }}>
            <circle r={3.5} fill="#6b6452" stroke="#fff" strokeWidth={1.2} />
            <text x={7} y={4} fontSize={12} fill="#4a4538" stroke="#f6f3ea" strokeWidth={3} paintOrder="stroke">
              {city.name}
            </text>
          </g>
        ))}
        {pin ? (
          <g
            data-pin
            data-testid="position-pin"
            transform={`translate(${pin[0]},${pin[1]})`}
            style={{ cursor: 'grab' }}
          >
            <path
              d="M0,0 C-2,-8 -11,-12 -11,-21 A11,11 0 1 1 11,-21 C11,-12 2,-8 0,0 Z"
              fill="#e8590c"
              stroke="#fff"
              strokeWidth={1.5}
            />
            <circle cy={-21} r={4.5} fill="#fff" />
          </g>
        ) : null}
      </svg>
      <Stack gap={6} pos="absolute" top={8} right={8}>
        <ActionIcon
          size="lg"
          variant="default"
          aria-label="Zoom avant"
          disabled={zoom >= PICKER_ZOOM.max}
          onClick={() => setZoom((z) => Math.min(PICKER_ZOOM.max, z * 2))}
        >
          <Text fw={700} fz="lg" lh={1}>
            +
          </Text>
        </ActionIcon>
        <ActionIcon
          size="lg"
          variant="default"
          aria-label="Zoom arrière"
          disabled={zoom <= PICKER_ZOOM.min}
          onClick={() => setZoom((z) => Math.max(PICKER_ZOOM.min, z / 2))}
        >
          <Text fw={700} fz="lg" lh={1}>
            −
          </Text>
        </ActionIcon>
      </Stack>
      {!value ? (
        <Box pos="absolute" bottom={6} left={8} px={6} py={2} bg="rgba(255,255,255,0.85)" style={{ borderRadius: 4 }}>
          <Text fz="xs">Cliquez sur la carte pour placer le repère.</Text>
        </Box>
      ) : null}
    </Paper>
  )
})
