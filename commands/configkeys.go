package commands

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hbollon/go-edlib"
	"github.com/spf13/cast"
	"github.com/spf13/viper"

	"primeur/core/config"
)

// A setting mistyped is refused, never ignored: a configuration file's
// unknown key (data_dir: for data-dir), an unknown PRIMEUR_* variable or an
// unknown flag stops the command with one French line naming it and the
// closest known one (Damerau-Levenshtein distance, go-edlib). Values are
// checked for their kind before viper decodes them, so that a port that is
// not a number is one line too.

// settingKeys are the keys of the configuration schema.
func settingKeys() []string {
	keys := make([]string, len(config.Settings))
	for i, s := range config.Settings {
		keys[i] = s.Key
	}
	return keys
}

// envName is a setting's environment variable: PRIMEUR_ and the key in
// upper case, dashes and dots as underscores.
func envName(key string) string {
	return "PRIMEUR_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(key))
}

// envNotSettings are the PRIMEUR_* variables that are not settings:
// PRIMEUR_PASSWORD, which `primeur supply` reads, and those of the
// project's tests and tools (a test harness passes its environment to the
// binary it starts). TestEveryPrimeurVariableIsKnown keeps the list whole.
var envNotSettings = []string{EnvPassword, "PRIMEUR_BIN", "PRIMEUR_SCREENSHOTS"}

// envToolPrefixes are the prefixes of the tests' and tools' variables.
var envToolPrefixes = []string{"PRIMEUR_TEST_", "PRIMEUR_E2E_", "PRIMEUR_BENCH_", "PRIMEUR_SLOWLINE_", "PRIMEUR_PLANNERPAINT_", "PRIMEUR_YEARLINE_", "PRIMEUR_FACTURX_"}

// knownVariable reports whether a PRIMEUR_* variable is a setting's or
// one of envNotSettings.
func knownVariable(name string) bool {
	if slices.Contains(envNotSettings, name) {
		return true
	}
	for _, p := range envToolPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, k := range settingKeys() {
		if envName(k) == name {
			return true
		}
	}
	return false
}

// checkEnvironment refuses a PRIMEUR_* variable of environ that names no
// setting.
func checkEnvironment(environ []string) error {
	names := make([]string, len(config.Settings))
	for i, k := range settingKeys() {
		names[i] = envName(k)
	}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "PRIMEUR_") || knownVariable(name) {
			continue
		}
		return fmt.Errorf("variable d'environnement inconnue %s ; vouliez-vous dire %s ?", name, closestKey(name, names))
	}
	return nil
}

// checkFileKeys refuses a key of the configuration file at path that is
// not a setting; nested keys are read dotted (smtp: then host: is
// smtp.host).
func checkFileKeys(path string) error {
	file := viper.New()
	file.SetConfigFile(path)
	if err := file.ReadInConfig(); err != nil {
		return configFileError(path, err)
	}
	keys := settingKeys()
	found := file.AllKeys()
	slices.Sort(found)
	for _, k := range found {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("clé inconnue « %s » dans le fichier de configuration %s ; vouliez-vous dire « %s » ?", k, path, closestKey(k, keys))
		}
	}
	return nil
}

// configFileError says why the configuration file cannot be read.
func configFileError(path string, err error) error {
	if _, serr := os.Stat(path); serr != nil {
		return fmt.Errorf("fichier de configuration %s introuvable", path)
	}
	var unsupported viper.UnsupportedConfigError
	if errors.As(err, &unsupported) {
		return fmt.Errorf("fichier de configuration %s : son extension doit être .yaml, .yml, .toml ou .json", path)
	}
	return fmt.Errorf("fichier de configuration %s illisible : ce n'est pas du YAML, du TOML ou du JSON valide selon son extension", path)
}

// checkValueKinds refuses a setting whose value, wherever it comes from,
// is not of the kind its default is: a number for smtp.port, true or false
// for secure-cookies, one value (not a list or a section) for a text.
func checkValueKinds(v *viper.Viper) error {
	for _, s := range config.Settings {
		val := v.Get(s.Key)
		var err error
		var expects string
		switch s.Default.(type) {
		case int:
			_, err = cast.ToIntE(val)
			expects = "un nombre entier est attendu"
		case bool:
			_, err = cast.ToBoolE(val)
			expects = "true ou false est attendu"
		case string:
			switch val.(type) {
			case map[string]any, []any:
				err, expects = errKind, "une seule valeur est attendue, pas une liste ni une section"
			}
		}
		if err != nil {
			return fmt.Errorf("%s « %v » : %s", s.Key, val, expects)
		}
	}
	return nil
}

var errKind = errors.New("kind")

// closestKey is the candidate nearest to word by Damerau-Levenshtein
// distance (the first of equals), compared without case and with
// underscores as dashes; "" without candidates.
func closestKey(word string, candidates []string) string {
	norm := strings.NewReplacer("_", "-").Replace
	w := norm(strings.ToLower(word))
	best, bestDist := "", 0
	for _, c := range candidates {
		d := edlib.DamerauLevenshteinDistance(w, norm(strings.ToLower(c)))
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}
