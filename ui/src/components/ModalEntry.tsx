import { Button, Modal, type ModalProps } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import type { ReactNode } from 'react'

interface ModalEntryProps {
  /** The button's text. */
  label: string
  /** The dialog's title. */
  title: string
  size?: ModalProps['size']
  /** The dialog's content, given the function that closes it. */
  children: (close: () => void) => ReactNode
}

/** A button that opens its form in a dialog (the add bar's entries). */
export function ModalEntry({ label, title, size, children }: ModalEntryProps) {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button variant="light" onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} size={size} closeButtonProps={{ 'aria-label': 'Fermer' }}>
        {children(close)}
      </Modal>
    </>
  )
}
