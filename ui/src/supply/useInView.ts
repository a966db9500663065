import { type RefObject, useEffect, useRef, useState } from 'react'

/**
 * Whether an element has come into view (once true, it stays true), so a
 * long grid draws only the charts the user scrolls to. Without
 * IntersectionObserver everything counts as visible.
 */
export function useInView<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null)
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const element = ref.current
    if (visible || !element) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true)
          observer.disconnect()
        }
      },
      { rootMargin: '200px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [visible])
  return [ref, visible]
}
