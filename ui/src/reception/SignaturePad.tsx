import { Button, Group, Stack, Text } from '@mantine/core'
import { useEffect, useRef } from 'react'
import SignaturePadLib from 'signature_pad'

/**
 * The drawn signature (signature_pad): a canvas to sign with a finger, a
 * pen or the mouse, and "Effacer la signature". `onChange` receives the
 * drawing as a PNG data URL, or null once cleared. The typed name beside it
 * is what is required; the drawing is optional (a screen reader user signs
 * by the name).
 */
export function SignaturePad({ onChange }: { onChange: (png: string | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const pad = useRef<SignaturePadLib | null>(null)
  const changed = useRef(onChange)
  useEffect(() => {
    changed.current = onChange
  }, [onChange])
  useEffect(() => {
    const c = canvas.current
    if (!c) return
    // The canvas drawn at the screen's density, for a sharp line.
    const ratio = Math.max(window.devicePixelRatio || 1, 1)
    c.width = c.offsetWidth * ratio
    c.height = c.offsetHeight * ratio
    c.getContext('2d')?.scale(ratio, ratio)
    const p = new SignaturePadLib(c, { penColor: '#111', minWidth: 1, maxWidth: 2.5 })
    p.addEventListener('endStroke', () => changed.current(p.isEmpty() ? null : p.toDataURL('image/png')))
    pad.current = p
    return () => {
      p.off()
      pad.current = null
    }
  }, [])
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="signature-label">
        Signature (facultative)
      </Text>
      <canvas
        ref={canvas}
        role="img"
        aria-labelledby="signature-label"
        data-testid="signature"
        style={{
          width: '100%',
          maxWidth: 420,
          height: 140,
          border: '1px solid #adb5bd',
          borderRadius: 4,
          touchAction: 'none',
          background: '#fff',
        }}
      />
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => {
            pad.current?.clear()
            changed.current(null)
          }}
        >
          Effacer la signature
        </Button>
      </Group>
    </Stack>
  )
}
