import sys

from nardy.cli.main import main

sys.exit(main())
