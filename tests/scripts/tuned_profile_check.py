# SPDX-License-Identifier: GPL-2.0-or-later
# Load a TuneD profile with TuneD's own loader and print what TuneD makes of it (used by
# tuned_profile_check.sh): units in the order TuneD creates them (units/manager.py sorts by
# priority), their devices, udev regex and options as each plugin takes them, and which
# udev property sets each regex matches (hardware/device_matcher_udev.py).
# usage: tuned_profile_check.py LOAD_DIR PROFILE [PROPERTIES_FILE...]
import importlib
import os
import sys

import tuned.consts as consts
import tuned.profiles.factory
import tuned.profiles.loader
import tuned.profiles.locator
import tuned.profiles.merger
import tuned.profiles.variables
from tuned.hardware.device_matcher_udev import DeviceMatcherUdev
from tuned.utils.global_config import GlobalConfig


def plugin_class(unit_type):
    module = importlib.import_module("tuned.plugins.plugin_" + unit_type)
    return next(v for k, v in vars(module).items() if k.endswith("Plugin") and k != "Plugin"
                and getattr(v, "__module__", "") == module.__name__)


def plugin_options(unit):
    """The options as the plugin takes them (base.Plugin._get_effective_options)."""
    cls = plugin_class(unit.type)
    plugin = object.__new__(cls)  # no hardware, no daemon: only the option parsing
    plugin._has_dynamic_options = unit.type == "sysfs"  # as SysfsPlugin.__init__ sets it
    options = dict(unit.options)
    options.pop("priority", None)  # units/manager.py pops it before create_instance
    known = cls._get_config_options()
    for key in options:
        if key not in known and not plugin._has_dynamic_options:
            print("  UNKNOWN option %s (TuneD ignores it)" % key)
    effective = plugin._get_effective_options(options)
    return plugin, {k: v for k, v in effective.items() if k in options}


def print_unit(name, unit):
    print("unit %s type=%s devices=%s devices_udev_regex=%s priority=%s" % (
        name, unit.type, unit.devices, unit.devices_udev_regex, unit.options.get("priority", "0")))
    plugin, options = plugin_options(unit)
    for key, value in options.items():
        if unit.type == "sysfs":
            path = os.path.normpath(key)
            inside = plugin._check_sysfs(path) is not None
            print("  write %s = %s%s" % (path, value, "" if inside else " (REJECTED: not inside /sys)"))
        elif unit.type == "disk" and key == "readahead":
            print("  readahead = %s KiB" % plugin._parse_ra(value))
        else:
            print("  %s = %s" % (key, value))


def properties(path):
    with open(path) as f:
        return dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


def main():
    load_dir, profile_name, property_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    loader = tuned.profiles.loader.Loader(
        tuned.profiles.locator.Locator([load_dir]), tuned.profiles.factory.Factory(),
        tuned.profiles.merger.Merger(), GlobalConfig(), tuned.profiles.variables.Variables())
    profile = loader.load(profile_name)
    print("summary=%s" % profile.options.get("summary"))
    units = sorted(profile.units.items(), key=lambda item: int(item[1].options.get(
        "priority", consts.CFG_DEF_DEFAULT_INSTANCE_PRIORITY)))
    for name, unit in units:
        print_unit(name, unit)
    for path in property_files:
        props = properties(path)
        for name, unit in units:
            if unit.devices_udev_regex is not None:
                matched = DeviceMatcherUdev().match(unit.devices_udev_regex, props)
                print("%s %s %s" % (os.path.basename(path), "matches" if matched else "does not match", name))


main()
