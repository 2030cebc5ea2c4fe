'use strict'
// Quoting a path for a command line the user can paste back: a POSIX shell's single
// quotes, or cmd/PowerShell's double quotes on Windows. Plain paths stay unquoted; on
// Windows a comma is not plain (PowerShell makes an array of `a,b`, cmd splits there).

const PLAIN = { posix: /^[\w@%+=:,./-]+$/, win32: /^[\w@%+=:./\\-]+$/ }

function quoteArg(arg, platform = process.platform) {
  if (platform === 'win32') return PLAIN.win32.test(arg) ? arg : `"${arg.replace(/"/g, '""')}"`
  return PLAIN.posix.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`
}

module.exports = { quoteArg }
