// Command primeur is the Primeur daemon and its admin tools.
package main

import "primeur/commands"

func main() {
	commands.Execute()
}
