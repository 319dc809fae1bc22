// Package shellword quotes command-line words for POSIX shells (bash,
// dash, zsh), so that a command line fprlab writes -- into a manifest, a
// batch script, a message -- runs, pasted into a shell, with exactly the
// words it was made of: no expansion ($, backquotes, globs), no word
// splitting, no second command.
package shellword

import "strings"

// Quote returns w as one shell word: unchanged when it is made only of
// characters no shell treats specially (letters, digits and - _ . / , : =
// +), else in single quotes, inside which nothing is special: a single
// quote in w ends the quoted part, is written escaped (\') and a new
// quoted part begins. The empty word is a pair of single quotes.
func Quote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool { return !plain(r) }) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// plain reports whether r needs no quoting anywhere in a word.
func plain(r rune) bool {
	return r == '-' || r == '_' || r == '.' || r == '/' || r == ',' || r == ':' || r == '=' || r == '+' ||
		(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// Join quotes each word of argv and joins them with spaces: a command
// line that a shell splits back into argv.
func Join(argv []string) string {
	q := make([]string, len(argv))
	for i, w := range argv {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
