#ifndef SEEDGEN_SQLITE_SHIM_H
#define SEEDGEN_SQLITE_SHIM_H

#include <sqlite3.h>

#endif
