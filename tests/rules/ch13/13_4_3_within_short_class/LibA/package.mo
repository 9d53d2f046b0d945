within;
package LibA = LibBase;
