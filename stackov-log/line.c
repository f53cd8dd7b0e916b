// SPDX-License-Identifier: GPL-2.0
/*
 * stackov-log: one log line made plain (the prefixes that dmesg, the
 * serial console, journalctl and syzbot put before the kernel's words
 * taken off), and a trace entry read from it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackov-log.h"

/* "[   12.345678]", "[12.3]": a printk timestamp; its length or 0. */
static size_t timestamp(const char *s)
{
	const char *p = s + 1;

	if (*s != '[')
		return 0;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == ']' ? (size_t)(p + 1 - s) : 0;
}

/* "[ T123]", "[  C1]": CONFIG_PRINTK_CALLER's caller id; its length or 0. */
static size_t caller_id(const char *s, char *id, size_t len)
{
	const char *p = s + 1, *start;

	if (*s != '[')
		return 0;
	while (*p == ' ')
		p++;
	start = p;
	if (*p != 'T' && *p != 'C')
		return 0;
	p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ']')
		return 0;
	snprintf(id, len, "%.*s", (int)(p - start), start);
	return p + 1 - s;
}

/*
 * dmesg -x's "kern  :warn  : ", dmesg --decode's facility and level; its
 * length or 0.
 */
static size_t facility_level(const char *s)
{
	static const char * const level[] = {
		"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
	};
	const char *p = s, *l;
	size_t i, n;

	while (islower((unsigned char)*p))
		p++;
	if (p == s || p - s > 8)
		return 0;
	while (*p == ' ')
		p++;
	if (*p++ != ':')
		return 0;
	l = p;
	while (islower((unsigned char)*p))
		p++;
	n = p - l;
	while (*p == ' ')
		p++;
	if (*p != ':' || p[1] != ' ')
		return 0;
	for (i = 0; i < ARRAY_SIZE(level); i++)
		if (strlen(level[i]) == n && !strncmp(l, level[i], n))
			return p + 2 - s;
	return 0;
}

/* dmesg -T's "[Mon Dec  5 12:00:00 2022]"; its length or 0. */
static size_t wall_time(const char *s)
{
	int a, b, c, d, n = 0;
	char wd[4], mon[4];

	if (sscanf(s, "[%3[A-Za-z] %3[A-Za-z] %d %d:%d:%d %*d]%n", wd, mon, &a, &b, &c, &d, &n) == 6 && n)
		return n;
	return 0;
}

/*
 * The kernel's own words of @line, in place: no line end, no mail quote
 * ("> ", "> > "), no "<4>" level, no dmesg -x facility and level, no
 * timestamp, no "host kernel: " of syslog; the caller id, if any, in
 * @caller. Leading blanks are kept: trace entries are indented.
 */
char *sl_plain(char *line, char *caller, size_t clen)
{
	char *s = line, *k;
	size_t n, l;

	l = strcspn(s, "\r\n");
	s[l] = '\0';
	caller[0] = '\0';
	/* A mail reply's quote, at any depth: ">", and one blank after each. */
	while (*s == '>') {
		s++;
		if (*s == ' ')
			s++;
	}
	/* A log indented as a whole (a mail's, a bug tracker's): "    [  9.2] ..." */
	n = strspn(s, " \t");
	if (n && (timestamp(s + n) || caller_id(s + n, caller, clen)))
		s += n;
	/* syslog and journalctl: "Dec  5 12:00:00 host kernel: ..." */
	k = strstr(s, " kernel: ");
	if (k && k - s < 64)
		s = k + 9;
	for (;;) {
		if (s[0] == '<' && isdigit((unsigned char)s[1]) && s[2] == '>') {
			s += 3;
			continue;
		}
		n = facility_level(s);
		if (!n)
			n = wall_time(s);
		if (n) {
			s += n;
			continue;
		}
		n = timestamp(s);
		if (!n)
			n = caller_id(s, caller, clen);
		if (!n)
			break;
		s += n;
		if (*s == ' ')
			s++;
	}
	return s;
}

static int symchar(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/*
 * A trace entry: " ? func+0x1a/0x30 [mod]", " func+0x1a/0x30", the old
 * " [<ffffffff81234567>] func+0x1a/0x30", syzbot's decoded
 * " func+0x1a/0x30 fs/ext4/xattr.c:123", decode_stacktrace.sh's
 * " func (fs/ext4/xattr.c:123)" (offset and size 0: not known); an
 * "[inline]" entry is no frame of its own and is not one. 1 if @s is an
 * entry.
 */
int sl_parse_entry(const char *s, struct sl_entry *e)
{
	const char *p = s, *name;
	char *end;
	size_t n;

	memset(e, 0, sizeof(*e));
	e->bytes = -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '[' && p[1] == '<') {
		p = strchr(p, ']');
		if (!p)
			return 0;
		p++;
		while (*p == ' ')
			p++;
	}
	if (p[0] == '?' && p[1] == ' ') {
		e->unreliable = 1;
		p += 2;
	}
	name = p;
	while (symchar((unsigned char)*p))
		p++;
	n = p - name;
	if (!n || n >= sizeof(e->func))
		return 0;
	memcpy(e->func, name, n);
	e->func[n] = '\0';
	/* decode_stacktrace.sh's "func (file.c:123)": no offset left to read */
	if (p[0] == ' ' && p[1] == '(' && strchr(p, ':') && strchr(p, ')'))
		return 1;
	if (*p != '+' || p[1] != '0' || p[2] != 'x')
		return 0;
	e->off = strtoul(p + 1, &end, 16);
	if (end == p + 1 || *end != '/')
		return 0;
	p = end + 1;
	e->size = strtoul(p, &end, 16);
	if (end == p)
		return 0;
	p = end;
	while (*p == ' ')
		p++;
	if (*p == '[') {
		n = strcspn(p + 1, " ]");
		if (strncmp(p + 1, "inline", 6) && n < sizeof(e->mod)) {
			memcpy(e->mod, p + 1, n);
			e->mod[n] = '\0';
		}
	}
	return 1;
}
