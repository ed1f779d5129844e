//go:build ignore

// Command common_passwords_gen writes common_passwords.txt, the list of common passwords that
// sign-up refuses ("compromised"). Run it with `go generate ./server/account`.
//
// Nothing is downloaded: the list is built from patterns that dominate every public breach
// corpus — the most frequent passwords and base words (English and Spanish), with the usual
// decorations (capital first letter, digits, years, "!" and friends), keyboard walks, digit runs
// and repeated characters. Only entries of at least 8 characters are written; shorter ones are
// refused by the length rule anyway. The check folds case, spaces and leet swaps (see
// foldPassword), so the list holds lower-case plain forms only.
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Words and whole passwords that top public breach lists, English first, then Spanish.
var words = strings.Fields(`
password passwd pass qwerty qwertz azerty iloveyou admin administrator welcome letmein monkey dragon
football baseball basketball soccer hockey sunshine princess master shadow superman batman spiderman
trustno1 starwars whatever freedom michael jennifer jordan hunter charlie computer internet samsung
pokemon naruto liverpool chelsea arsenal manchester killer hello secret login changeme default access
flower cheese summer winter spring autumn ginger pepper tigger buster daniel andrew thomas robert
matthew jessica ashley nicole michelle amanda loveme lovely mustang harley ranger maggie cookie
banana chocolate butterfly purple orange yellow silver golden diamond matrix ninja zxcvbnm asdfgh
asdfghjkl qazwsx mypassword newpassword passpass adminadmin root rootroot user test tester guest
demo example wealth money bitcoin crypto angel angels babygirl beautiful blessed charlie1 daddy
mommy family forever friends gemini george hannah heather iloveu jasmine jessica1 joshua justin
killer1 lakers love lovers marina martin maverick melissa mercedes merlin midnight mickey minecraft
mother nathan nicholas nirvana oliver orange1 packers panther peanut phoenix player pussycat qwerty1
rainbow richard rocket rockstar sabrina samantha scooter secret1 shannon sierra snoopy sophie
sparky spiderman starlight steelers stella taylor thunder tiger tigers toyota trinity vanessa
victoria viking warrior william wizard yankees zachary access14 apple apples banana1 benjamin
blink182 bulldog caroline cowboys dallas dolphin eagles enter falcon ferrari ford fuckyou google
hotdog jackson jaguar legend letmein1 linkedin facebook twitter instagram youtube netflix spotify
microsoft windows linux ubuntu oracle postgres mysql server office office365 company business
patrimonio finanzas finance invest investor welcome1 password1 qwertyuiop asdfghjkl zxcvbnm
contraseña contrasena contraseña1 teamo tequiero teamomucho amor amorcito amormio miamor corazon
mariposa princesa estrella españa espana madrid barcelona realmadrid barca barsa sevilla valencia
betis atletico futbol mexico argentina colombia chile peru venezuela ecuador uruguay bogota lima
caracas jesus jesucristo dios diosesamor diosmio familia mama papa mamita papito hijo hija hermano
hermana abuela abuelo maria jose juan carlos luis antonio manuel francisco javier miguel pedro
alejandro david fernando jorge laura marta lucia carmen isabel sofia paula elena cristina patricia
gabriela andrea daniela valentina camila fernanda alejandra mariana natalia carolina gato perro
perrito gatito hola holamundo holahola bienvenido secreto clave miclave usuario administrador
facil hermosa bonita bonito precioso preciosa pelota cielo verano invierno primavera otoño
chocolate1 fresita tesoro tesorito chiquita chiquito lobito osito conejo tigre leon aguila
guerrero angelito angel estrellita lucero paloma rosa margarita girasol azul rojo verde negro
blanco amarillo morado dinero banco cuenta trabajo oficina empresa sistema servidor internet
computadora ordenador portatil telefono celular casa hogar playa montaña navidad feliz
felicidad alegria esperanza victoria libertad paz amistad amigos amigo amiga novio novia
`)

// Whole passwords, kept as they are (keyboard walks, runs, repeats, phrases).
var whole = strings.Fields(`
1234567890 0123456789 12345678910 123456789012 1234567890123 0987654321 9876543210 1029384756
1122334455 1212121212 1231231231 1234512345 1234554321 1111122222 1357924680 2468013579
abcdefghij abcdefghijk abcdefghijkl abc123abc123 abcd1234abcd abcdef123456 a1b2c3d4e5 a1b2c3d4e5f6
qwertyuiop qwertyuiop1 qwertyuiop123 qwertyuiop[] 1qaz2wsx3edc 1qaz2wsx3edc4rfv qazwsxedc
qazwsxedcrfv qazwsxedcrfvtgb zaq12wsxcde3 zaq1xsw2cde3 !qaz2wsx#edc 1q2w3e4r5t 1q2w3e4r5t6y
1q2w3e4r5t6y7u 1q2w3e4r5t6y7u8i q1w2e3r4t5 q1w2e3r4t5y6 asdfghjkl; asdfghjkl123 zxcvbnm123
zxcvbnm,./ poiuytrewq lkjhgfdsa mnbvcxz123 qweasdzxc123 qweasdzxc1 1qazxsw2 1qaz@wsx 2wsx3edc
passwordpassword password12345 password123456 passw0rd123 p@ssw0rd123 letmeinnow letmein123
iloveyou123 iloveyou2 iloveyouforever iloveyousomuch trustnoone welcometo welcomehome
changemenow changeme123 adminadmin123 administrator1 rootpassword mysecretpassword
correcthorsebatterystaple thequickbrownfox loremipsum loremipsumdolor
contraseña123 contraseña1234 micontraseña micontrasena nuevacontraseña holacomoestas
teamomucho1 tequieromucho tequieromuchisimo teamoconlocura tequieroamor dioseselamor
diosmeama diosesbueno yoteamo1 telovoyadecir
`)

// top are the most frequent base words of all; they get every decoration, the others the usual few.
var top = strings.Fields(`
password passw0rd qwerty iloveyou admin welcome letmein monkey dragon football baseball sunshine
princess master shadow superman batman starwars freedom michael jennifer charlie computer pokemon
liverpool summer contraseña contrasena teamo tequiero amor princesa españa madrid barcelona
realmadrid futbol mexico argentina colombia familia patrimonio
`)

var fewSuffixes = []string{"", "1", "12", "123", "1234", "12345", "123456", "!", "1!", "123!", "01", "2024", "2025", "2026"}

var prefixes = []string{"my", "mi", "ilove", "teamo"}

var suffixes = func() []string {
	s := []string{"", "1", "12", "123", "1234", "12345", "123456", "1234567", "12345678", "123456789",
		"!", "1!", "12!", "123!", "1234!", "!!", "!!!", "01", "007", "69", "99", "00", "11", "22", "77", "88",
		"@123", "#1", "?", ".", "*", "321", "111", "000", "2", "3", "7", "13", "21", "23", "xx", "x"}
	for y := 1980; y <= 2030; y++ {
		s = append(s, strconv.Itoa(y), strconv.Itoa(y)+"!")
	}
	for y := 0; y <= 30; y++ {
		s = append(s, fmt.Sprintf("%02d", y))
	}
	return s
}()

func main() {
	set := map[string]struct{}{}
	add := func(p string) {
		p = strings.ToLower(strings.TrimSpace(p))
		if utf8.RuneCountInString(p) >= 8 {
			set[p] = struct{}{}
		}
	}
	for _, w := range whole {
		add(w)
	}
	for _, w := range top {
		for _, suf := range suffixes {
			add(w + suf)
		}
	}
	for _, w := range words {
		for _, suf := range fewSuffixes {
			add(w + suf)
		}
		for _, pre := range prefixes {
			add(pre + w)
		}
		add(w + w)
	}
	// Runs of one character, 8 to 20 long, and pairs repeated.
	for _, c := range "0123456789abcdefghijklmnopqrstuvwxyz" {
		for n := 8; n <= 20; n++ {
			add(strings.Repeat(string(c), n))
		}
	}
	for _, pair := range []string{"12", "21", "01", "10", "ab", "ba", "69", "99", "11", "qw", "xo", "ha", "ja", "jo", "lo"} {
		for n := 4; n <= 10; n++ {
			add(strings.Repeat(pair, n))
		}
	}
	// Ascending and descending digit runs of every length from 8, starting at any digit.
	digits := "01234567890123456789"
	for start := 0; start < 10; start++ {
		for n := 8; n <= 20 && start+n <= len(digits); n++ {
			run := digits[start : start+n]
			add(run)
			add(reverse(run))
		}
	}

	lines := make([]string, 0, len(set))
	for p := range set {
		lines = append(lines, p)
	}
	sort.Strings(lines)
	header := "# Common passwords refused at sign-up (\"compromised\"). GENERATED by common_passwords_gen.go — do not edit.\n" +
		"# " + strconv.Itoa(len(lines)) + " entries; matching folds case, spaces and leet swaps (see foldPassword).\n"
	if err := os.WriteFile("common_passwords.txt", []byte(header+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("common_passwords.txt: %d entries\n", len(lines))
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
