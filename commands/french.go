package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"regexp"
	"strings"
	"syscall"

	"github.com/lib/pq"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"primeur/core"
	"primeur/core/schema"
)

// The command line speaks French, as the product does: its help, its
// reports and every error a person reads. Cobra and pflag write theirs in
// English; this file gives them French ones — the usage template, the help
// command and flag, the refusals of arguments and flags — and french turns
// the errors of the libraries underneath (a file not found, a database
// that does not answer) into sentences, so that no Go error text
// ("strconv.ParseInt: parsing …") reaches a person.

// usageTemplate is cobra's usage template in French, its flags listed by
// flagUsages.
const usageTemplate = `Utilisation :{{if and .Runnable (not .HasAvailableSubCommands)}}
  {{frenchUse .UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [commande]{{end}}{{if gt (len .Aliases) 0}}

Autres noms :
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Exemples :
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commandes :{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Options :
{{flagUsages .LocalFlags}}{{end}}{{if .HasAvailableInheritedFlags}}

Options communes :
{{flagUsages .InheritedFlags}}{{end}}{{if .HasAvailableSubCommands}}

« {{.CommandPath}} [commande] --help » décrit chaque commande.{{end}}
`

func init() {
	cobra.AddTemplateFunc("flagUsages", flagUsages)
	cobra.AddTemplateFunc("frenchUse", func(use string) string { return strings.Replace(use, "[flags]", "[options]", 1) })
}

// flagTypes name the values of flags in the help.
var flagTypes = map[string]string{
	"string": "texte", "int": "entier", "float64": "nombre", "duration": "durée", "stringSlice": "textes",
}

// flagUsages lists flags as pflag's FlagUsages does, in French: the
// value's kind and the default.
func flagUsages(fs *pflag.FlagSet) string {
	type line struct{ head, usage string }
	var lines []line
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		head := "      --" + f.Name
		if f.Shorthand != "" {
			head = "  -" + f.Shorthand + ", --" + f.Name
		}
		if kind := flagTypes[f.Value.Type()]; kind != "" {
			head += " " + kind
		}
		usage := f.Usage
		switch {
		case f.Value.Type() == "bool", f.DefValue == "", f.DefValue == "0" && f.Value.Type() != "string", f.DefValue == "[]":
		default:
			usage += " (par défaut « " + f.DefValue + " »)"
		}
		if f.Deprecated != "" {
			usage += " (obsolète : " + f.Deprecated + ")"
		}
		width = max(width, len([]rune(head)))
		lines = append(lines, line{head, usage})
	})
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.head + strings.Repeat(" ", width-len([]rune(l.head))+3) + l.usage)
	}
	return b.String()
}

// frenchCommands gives every command of the tree under root its French
// help flag and its refusals: a command that groups others (user, jobs…)
// refuses an unknown one (unknownCommand) and prints its help when none
// is given; the help command is French too.
func frenchCommands(root *cobra.Command) {
	root.SetUsageTemplate(usageTemplate)
	root.SetHelpTemplate(`{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return flagError(cmd, err) })
	root.SetHelpCommand(&cobra.Command{
		Use:               "help [commande]",
		Short:             "Décrire une commande",
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		Long:              "Décrire une commande : « primeur help user create » est « primeur user create --help ».",
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				parent := target
				if parent == nil {
					parent = root
				}
				return unknownCommand(parent, rest[0])
			}
			return target.Help()
		},
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().BoolP("help", "h", false, "décrire "+c.CommandPath())
		c.SuggestionsMinimumDistance = 2
		if c.HasSubCommands() {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return unknownCommand(cmd, args[0])
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// unknownCommand is the refusal of a word that names no subcommand of
// cmd, with cobra's suggestions (Levenshtein distance, prefix, SuggestFor):
// « commande inconnue « add » pour primeur user ; vouliez-vous dire
// « create » ? ».
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("commande inconnue « %s » pour %s", word, cmd.CommandPath())
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		return fmt.Errorf("%s ; vouliez-vous dire « %s » ?", msg, strings.Join(s, " » ou « "))
	}
	return fmt.Errorf("%s ; « %s --help » les liste", msg, cmd.CommandPath())
}

// noArgs refuses any argument: a command whose input is its flags.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s ne prend pas d'argument (« %s » donné) ; « %s --help » décrit ses options",
			cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// exactArgs asks for n arguments, which cmd's Use names.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == n {
			return nil
		}
		want := strings.Join(strings.Fields(cmd.Use)[1:], " ")
		if len(args) < n {
			return fmt.Errorf("il manque %s : %s %s", plural(n-len(args), "un argument", "des arguments"), cmd.CommandPath(), want)
		}
		return fmt.Errorf("trop d'arguments (« %s » en plus) : %s %s", strings.Join(args[n:], " "), cmd.CommandPath(), want)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// flagExpects says what a flag's value must be, by its type.
var flagExpects = map[string]string{
	"int":      "un nombre entier est attendu",
	"float64":  "un nombre est attendu, avec un point pour les décimales (par exemple 135000 ou 1250.50)",
	"bool":     "true ou false est attendu",
	"duration": "une durée est attendue (par exemple 48h ou 90m)",
}

// flagError turns pflag's refusals into French: an unknown flag (with the
// closest the command knows), a flag without its value, a value of the
// wrong kind (naming the value and the form expected, never the parser's
// error).
func flagError(cmd *cobra.Command, err error) error {
	// A group given a word that names none of its commands, then flags
	// for the command meant: the word is the mistake.
	if args := cmd.Flags().Args(); cmd.HasSubCommands() && len(args) > 0 {
		return unknownCommand(cmd, args[0])
	}
	var notExist *pflag.NotExistError
	var needsValue *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	var syntax *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if short := notExist.GetSpecifiedShortnames(); short != "" {
			return fmt.Errorf("option inconnue « -%s » dans « -%s » ; « %s --help » liste les options", name, short, cmd.CommandPath())
		}
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if closest := closestKey(name, names); closest != "" {
			return fmt.Errorf("option inconnue « --%s » pour %s ; vouliez-vous dire « --%s » ?", name, cmd.CommandPath(), closest)
		}
		return fmt.Errorf("option inconnue « --%s » pour %s", name, cmd.CommandPath())
	case errors.As(err, &needsValue):
		return fmt.Errorf("l'option --%s attend une valeur : %s", needsValue.GetFlag().Name, needsValue.GetFlag().Usage)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		expects := flagExpects[f.Value.Type()]
		if expects == "" {
			expects = f.Usage
		}
		return fmt.Errorf("--%s « %s » : %s", f.Name, invalid.GetValue(), expects)
	case errors.As(err, &syntax):
		return fmt.Errorf("option mal écrite « %s » : une option s'écrit --nom valeur ou --nom=valeur", syntax.GetSpecifiedFlag())
	}
	return err
}

// newerVersions reads schema.Check's versions.
var newerVersions = regexp.MustCompile(`version (\d+), this binary knows up to (\d+)`)

// requiredFlags is cobra's refusal of missing required flags.
var requiredFlags = regexp.MustCompile(`^required flag\(s\) "(.*)" not set$`)

// french is the line a person reads for err: errors already in French go
// as they are; those of the libraries underneath become French sentences
// naming what they are about.
func french(err error) string {
	if m := requiredFlags.FindStringSubmatch(err.Error()); m != nil {
		names := strings.Split(m[1], `", "`)
		for i, n := range names {
			names[i] = "--" + n
		}
		return plural(len(names), "option obligatoire manquante : ", "options obligatoires manquantes : ") + strings.Join(names, ", ")
	}
	var path *fs.PathError
	if errors.As(err, &path) {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("%s : fichier ou dossier introuvable", path.Path)
		case errors.Is(err, fs.ErrPermission):
			return fmt.Sprintf("%s : accès refusé", path.Path)
		case errors.Is(err, fs.ErrExist):
			return fmt.Sprintf("%s existe déjà", path.Path)
		case errors.Is(err, syscall.ENOSPC):
			return fmt.Sprintf("%s : plus de place sur le disque", path.Path)
		case errors.Is(err, syscall.EISDIR):
			return fmt.Sprintf("%s est un dossier, pas un fichier", path.Path)
		case errors.Is(err, syscall.ENOTDIR):
			return fmt.Sprintf("%s : un élément du chemin n'est pas un dossier", path.Path)
		}
		return fmt.Sprintf("%s : erreur du système de fichiers (%v)", path.Path, path.Err)
	}
	if errors.Is(err, schema.ErrNewer) {
		versions := ""
		if m := newerVersions.FindStringSubmatch(err.Error()); m != nil {
			versions = fmt.Sprintf(" (schéma version %s ; celle-ci connaît jusqu'à la %s)", m[1], m[2])
		}
		return "la base vient d'une version plus récente de Primeur" + versions + " : lancez cette version-là, ou une plus récente"
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return "PostgreSQL refuse la connexion : utilisateur ou mot de passe de database-url incorrect"
		case "3D000":
			return "la base PostgreSQL de database-url n'existe pas : créez-la (createdb), puis lancez primeur migrate"
		}
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return fmt.Sprintf("la base de données ne répond pas (%s %s) : vérifiez database-url et que PostgreSQL est démarré", op.Op, addrOf(op))
	}
	return err.Error()
}

func addrOf(op *net.OpError) string {
	if op.Addr != nil {
		return op.Addr.String()
	}
	return ""
}

// flagValue is a flag's name and the value given.
type flagValue struct{ flag, value string }

// flagsError names, in a core.ValidationError about values a command took
// from its flags (flags: by the error's field name), each flag and its
// value, a message given for several fields once: "--start « 2026-13-01 » :
// Veuillez saisir une date de début valide (AAAA-MM-JJ).". Any other
// error is returned as it is.
func flagsError(err error, flags map[string]flagValue) error {
	var ve *core.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) == 0 {
		return err
	}
	var parts []string
	said := map[string]bool{}
	for _, f := range ve.Fields {
		if said[f.Message] {
			continue // the same refusal of several values (each month of a range)
		}
		said[f.Message] = true
		part := f.Message
		if v, ok := flags[f.Field]; ok {
			part = fmt.Sprintf("--%s « %s » : %s", v.flag, v.value, f.Message)
		}
		parts = append(parts, part)
	}
	return errors.New(strings.Join(parts, " ; "))
}
