import { Button, Modal, type ModalProps } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { type ReactNode, useRef } from 'react'

interface ModalEntryProps {
  /** The button's text. */
  label: string
  /** The dialog's title. */
  title: string
  size?: ModalProps['size']
  /** The dialog's content, given the function that closes it. */
  children: (close: () => void) => ReactNode
}

/**
 * A button that opens its form in a dialog (the add bar's entries). However
 * the dialog closes — sent, Escape, "Fermer" — the focus comes back to the
 * button (WCAG 2.4.3): a form sent disables its button, and the focus would
 * otherwise be left on the page's body.
 */
export function ModalEntry({ label, title, size, children }: ModalEntryProps) {
  const [opened, { open, close: hide }] = useDisclosure(false)
  const button = useRef<HTMLButtonElement>(null)
  const close = () => {
    hide()
    window.setTimeout(() => button.current?.focus(), 0)
  }
  return (
    <>
      <Button ref={button} variant="light" onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} size={size} closeButtonProps={{ 'aria-label': 'Fermer' }}>
        {children(close)}
      </Modal>
    </>
  )
}
