// A made-up file for tests/layering: the generator reaching up into the file readers.
#include "compute/io/HklFile.h"
